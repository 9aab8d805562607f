/**
 * Reading a request's parameters: the query string and a form, multipart or JSON body, capped at 1 MB (more for a
 * route's files). Every text a request carries passes here, so this is where characters no text field takes are
 * refused (shared/text-chars.ts).
 */
import { z } from 'zod';
import { hasForbiddenChar } from '../../shared/text-chars.ts';
import { ApiError } from './envelope.ts';

/** Largest body read (the adapter's bodySizeLimit in astro.config.mjs is the same). */
export const MAX_BODY = 1024 * 1024;

export type Fields = Record<string, unknown>;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Strict x-www-form-urlencoded: a broken %-escape or bytes that are not UTF-8 make it malformed (null). */
function parseUrlEncoded(raw: string): Record<string, string> | null {
  const out: Record<string, string> = Object.create(null);
  for (const part of raw.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const rawKey = eq === -1 ? part : part.slice(0, eq);
    const rawValue = eq === -1 ? '' : part.slice(eq + 1);
    try {
      const key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
      const value = decodeURIComponent(rawValue.replace(/\+/g, ' '));
      // The first occurrence wins, as URLSearchParams.get does.
      if (!(key in out)) out[key] = value;
    } catch {
      return null;
    }
  }
  return out;
}

/**
 * `fields` unchanged, or a 400 when a key or a string anywhere in them (a JSON body nests) holds a forbidden character.
 * Walked with a stack, not recursion: a 1 MB body of nested arrays must not overflow the call stack.
 */
function refuseForbiddenChars(fields: Fields): Fields {
  const pending: unknown[] = [fields];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (hasForbiddenChar(value)) throw new ApiError(400, 'error.badText');
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        if (hasForbiddenChar(key)) throw new ApiError(400, 'error.badText');
        pending.push(inner);
      }
    }
  }
  return fields;
}

const emptyAbsentKeys = new WeakMap<z.ZodType, readonly string[]>();

/**
 * The fields of an input schema for which an empty value means "not sent" (`from_group_id=`, `cursor=`): those that
 * may be absent and would refuse ''. A required field sent empty stays a 400, and a field that takes '' keeps it.
 */
function emptyMeansAbsent(schema: z.ZodType): readonly string[] {
  let keys = emptyAbsentKeys.get(schema);
  if (!keys) {
    const shape: Record<string, z.ZodType> = schema instanceof z.ZodObject ? schema.shape : {};
    keys = Object.keys(shape).filter((k) => shape[k]!.safeParse(undefined).success && !shape[k]!.safeParse('').success);
    emptyAbsentKeys.set(schema, keys);
  }
  return keys;
}

/** `fields` with the empty optional parameters of `schema` removed, as douyin.com's clients send them: `?a=&b=1` is `?b=1`. */
export function withoutEmptyOptionals(schema: z.ZodType, fields: Fields): Fields {
  for (const key of emptyMeansAbsent(schema)) if (fields[key] === '') delete fields[key];
  return fields;
}

/** The query string's fields; a malformed one is a 400. */
export function queryFields(url: URL): Fields {
  const fields = parseUrlEncoded(url.search.slice(1));
  if (!fields) throw new ApiError(400, 'error.badBody');
  return refuseForbiddenChars(fields);
}

function tooLarge(): ApiError {
  return new ApiError(413, 'error.tooLarge');
}

/** The body's bytes, refusing more than `max`: by Content-Length first, then by counting what arrives. */
async function readBytes(request: Request, max: number): Promise<Uint8Array> {
  const declared = request.headers.get('content-length');
  if (declared !== null && (!/^\d+$/.test(declared) || Number(declared) > max)) {
    throw /^\d+$/.test(declared) ? tooLarge() : new ApiError(400, 'error.badBody');
  }
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > max) {
        void reader.cancel().catch(() => {});
        throw tooLarge();
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    // The Node adapter's own bodySizeLimit surfaces as a stream error while reading.
    if (error instanceof Error && /size limit/i.test(error.message)) throw tooLarge();
    throw new ApiError(400, 'error.badBody');
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

function decodeText(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new ApiError(400, 'error.badBody');
  }
}

/** Whether `bytes` are UTF-8. */
function isUtf8(bytes: Uint8Array): boolean {
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether every part of a multipart body holds UTF-8 where it holds text: its headers (field and file names) and,
 * unless it is a file, its content. formData() decodes bytes that are not UTF-8 as U+FFFD, so a text field would be
 * stored changed where the same bytes in a form or JSON body are refused. Parts are found by their delimiter, as
 * formData() finds them; a body it cannot parse is refused by it anyway.
 */
function multipartTextIsUtf8(bytes: Uint8Array, contentType: string): boolean {
  const param = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundary = param?.[1] ?? param?.[2];
  if (!boundary) return true;
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const first = Buffer.from(`--${boundary}`);
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  let at = body.indexOf(first);
  if (at === -1) return true;
  at += first.length;
  for (
    let end = body.indexOf(delimiter, at);
    end !== -1;
    at = end + delimiter.length, end = body.indexOf(delimiter, at)
  ) {
    const part = body.subarray(at, end);
    const split = part.indexOf('\r\n\r\n');
    const head = split === -1 ? part : part.subarray(0, split);
    // A file part names a filename outside the quoted values of its headers (a field may be called "filename=").
    const isFile = /;\s*filename\*?\s*=/i.test(head.toString('latin1').replace(/"(?:[^"\\]|\\.)*"/g, '""'));
    if (!isUtf8(isFile ? head : part)) return false;
  }
  return true;
}

export interface BodyOptions {
  /** Largest body read, in bytes (MAX_BODY by default). */
  maxBody?: number;
  /** Multipart fields that may hold a file (a route's `files`); a file in any other field is a 400. */
  files?: Record<string, number>;
}

/** A POST body's fields: form-encoded (Douyin's and the spec's format), multipart or a JSON object; files as `File`. */
export async function bodyFields(request: Request, options: BodyOptions = {}): Promise<Fields> {
  return refuseForbiddenChars(await readFields(request, options));
}

async function readFields(request: Request, { maxBody = MAX_BODY, files = {} }: BodyOptions): Promise<Fields> {
  const bytes = await readBytes(request, maxBody);
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (bytes.byteLength === 0) return {};
  if (type === 'application/x-www-form-urlencoded' || type === '') {
    const fields = parseUrlEncoded(decodeText(bytes));
    if (!fields) throw new ApiError(400, 'error.badBody');
    return fields;
  }
  if (type === 'application/json') {
    let value: unknown;
    try {
      value = JSON.parse(decodeText(bytes));
    } catch {
      throw new ApiError(400, 'error.badBody');
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ApiError(400, 'error.badBody');
    return Object.assign(Object.create(null), value) as Fields;
  }
  if (type === 'multipart/form-data') {
    let form: FormData;
    try {
      form = await new Request('http://body.invalid/', {
        method: 'POST',
        headers: { 'content-type': request.headers.get('content-type')! },
        body: bytes as Uint8Array<ArrayBuffer>,
      }).formData();
    } catch {
      throw new ApiError(400, 'error.badBody');
    }
    if (!multipartTextIsUtf8(bytes, request.headers.get('content-type')!)) throw new ApiError(400, 'error.badBody');
    const out: Fields = Object.create(null);
    for (const [key, value] of form) {
      // Only the fields a route names take a file; video uploads have their own (tus) door.
      if (typeof value !== 'string') {
        if (!Object.hasOwn(files, key)) throw new ApiError(400, 'error.badBody');
        // A form's file input left empty sends a nameless empty part: nothing chosen.
        if (value.size === 0 && value.name === '') continue;
      }
      if (!(key in out)) out[key] = value;
    }
    return out;
  }
  throw new ApiError(415, 'error.unsupportedType');
}
