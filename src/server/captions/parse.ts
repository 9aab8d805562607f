/**
 * Reading a caption file: WebVTT or SubRip text in, checked plain-text cues out. media-captions parses both formats
 * (and names the line of a malformed timestamp or header); the rules it leaves to us are checked here, each naming
 * the line a creator must fix: times inside the video, start before end, no scripts, text length, and the caps.
 */
import { parseText, parseVTTTimestamp, ParseErrorCode } from 'media-captions';
import { CAPTION_MAX_BYTES, CAPTION_MAX_CUES, CUE_TEXT_MAX, type Cue } from '../../shared/captions.ts';
import { invalid, tooLarge } from '../errors.ts';
import type { MessageKey } from '../../i18n/zh-CN.ts';

export type CaptionFormat = 'vtt' | 'srt';

const lineError = (key: MessageKey, line: number, vars: Record<string, string | number> = {}) =>
  invalid(key, { line, ...vars });

// Any C0 control but tab, newline and carriage return, and DEL: text files hold none of them.
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const BINARY = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/**
 * The file's text: UTF-8 (with or without a byte-order mark), UTF-16 with its mark, or GB18030 (many Chinese .srt
 * files are saved so). Bytes that are none of these, or text holding control characters, are not a caption file.
 */
export function decodeCaptionFile(bytes: Uint8Array): string {
  if (bytes.byteLength > CAPTION_MAX_BYTES) throw tooLarge('error.captionTooLarge', { max: CAPTION_MAX_BYTES / 1024 });
  if (bytes.byteLength === 0) throw invalid('error.captionEmpty');
  const attempts: [string, Uint8Array][] =
    bytes[0] === 0xff && bytes[1] === 0xfe
      ? [['utf-16le', bytes.subarray(2)]]
      : bytes[0] === 0xfe && bytes[1] === 0xff
        ? [['utf-16be', bytes.subarray(2)]]
        : [
            ['utf-8', bytes],
            ['gb18030', bytes],
          ];
  for (const [encoding, body] of attempts) {
    let text: string;
    try {
      text = new TextDecoder(encoding, { fatal: true, ignoreBOM: false }).decode(body);
    } catch {
      continue;
    }
    if (BINARY.test(text)) break;
    return text.replace(/^\uFEFF/, '');
  }
  throw invalid('error.captionBinary');
}

/** WebVTT when the text says so in its first line, else SubRip when the name or the content looks like it. */
export function formatOf(text: string, fileName: string): CaptionFormat {
  if (/^WEBVTT(?:[ \t]|$)/.test(text.split(/\r?\n|\r/, 1)[0] ?? '')) return 'vtt';
  if (/\.srt$/i.test(fileName) || /^\s*\d+\s*\r?\n\s*\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}\s*-->/.test(text)) return 'srt';
  // A .vtt without its header: WebVTT requires one, and saying so is more help than guessing.
  if (/\.vtt$/i.test(fileName)) throw lineError('error.captionSignature', 1);
  throw invalid('error.captionFormat');
}

// Markup that turns text into code: refused outright rather than stripped, so the creator knows the file was wrong.
const SCRIPT = /<\s*\/?\s*(script|style|iframe|object|embed|svg|math|link|meta)\b|javascript\s*:|\bon[a-z]+\s*=/i;
// Tags (<b>, <i>, <c.yellow>, <v 张三>, <00:00:01.000>, <font color=...>) and SSA overrides ({\an8}).
const TAG = /<[^>]*>|\{\\[^}]*\}/g;
const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  lrm: '',
  rlm: '',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0x1f && code <= 0x10ffff && code !== 0x7f ? String.fromCodePoint(code) : '';
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

// Control characters but the newline (C0, DEL, C1): a cue's text is plain text.
// eslint-disable-next-line no-control-regex -- control characters are what this removes
const CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g;

/** A cue's raw text as plain text: tags and overrides removed, entities decoded, lines trimmed, empty lines dropped. */
export function plainCueText(raw: string): string {
  return decodeEntities(raw.replace(TAG, ''))
    .replace(CONTROLS, ' ')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

interface Timing {
  line: number;
  start: number;
  end: number;
}

const TIMING = /^\s*(\S+)\s+-->\s+(\S+)/;

/** The timing line of every cue in file order, with its 1-based line number. */
function timings(lines: string[], format: CaptionFormat): Timing[] {
  const out: Timing[] = [];
  lines.forEach((text, i) => {
    const m = TIMING.exec(text);
    if (!m || !text.includes('-->')) return;
    const stamp = (s: string) => parseVTTTimestamp(format === 'srt' ? s.replace(',', '.') : s);
    const start = stamp(m[1]!);
    const end = stamp(m[2]!);
    if (start === null || end === null) throw lineError('error.captionTimestamp', i + 1);
    out.push({ line: i + 1, start: Math.round(start * 1000), end: Math.round(end * 1000) });
  });
  return out;
}

/** m:ss of a length in ms, for messages. */
function clock(ms: number): string {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * Parses and checks a caption file's text for a video of `durationMs`: throws a ServiceError naming the first line
 * at fault, else answers the cues in time order.
 */
export async function parseCaptions(text: string, fileName: string, durationMs: number): Promise<Cue[]> {
  const format = formatOf(text, fileName);
  const lines = text.split(/\r\n|\r|\n/);
  const stamps = timings(lines, format);
  if (stamps.length > CAPTION_MAX_CUES) throw invalid('error.captionTooManyCues', { max: CAPTION_MAX_CUES });

  const parsed = await parseText(text, { type: format, strict: false, errors: true });
  // Unknown cue settings (position:, align: …) do not matter to a player that draws its own cues.
  const fatal = parsed.errors
    .filter((e) => e.code !== ParseErrorCode.BadSettingValue && e.code !== ParseErrorCode.UnknownSetting)
    .sort((a, b) => a.line - b.line)[0];
  if (fatal) {
    if (fatal.code === ParseErrorCode.BadSignature) throw lineError('error.captionSignature', fatal.line);
    if (fatal.code === ParseErrorCode.BadTimestamp) throw lineError('error.captionTimestamp', fatal.line);
    throw lineError('error.captionMalformed', fatal.line);
  }
  for (const s of stamps) {
    if (s.end <= s.start) throw lineError('error.captionOrder', s.line);
    if (s.end > durationMs) throw lineError('error.captionPastEnd', s.line, { length: clock(durationMs) });
  }
  // Every timing line made one cue (none was refused above), in file order.
  if (parsed.cues.length !== stamps.length) throw invalid('error.captionMalformed', { line: stamps[0]?.line ?? 1 });

  const cues: Cue[] = [];
  parsed.cues.forEach((cue, i) => {
    const at = stamps[i]!;
    const rawLines = cue.text.split('\n');
    rawLines.forEach((raw, k) => {
      if (SCRIPT.test(raw)) throw lineError('error.captionScript', at.line + 1 + k);
    });
    const plain = plainCueText(cue.text);
    if ([...plain].length > CUE_TEXT_MAX)
      throw lineError('error.captionCueTooLong', at.line + 1, { max: CUE_TEXT_MAX });
    if (plain) cues.push({ start: at.start, end: at.end, text: plain });
  });
  if (cues.length === 0) throw invalid('error.captionNoCues');
  return cues.sort((a, b) => a.start - b.start || a.end - b.end);
}

/** Checks a creator's new text for one cue; answers it as stored. */
export function checkCueText(raw: string): string {
  if (SCRIPT.test(raw)) throw invalid('error.captionScriptText');
  const plain = plainCueText(raw.replace(/\r\n?/g, '\n'));
  if (!plain) throw invalid('error.captionCueEmpty');
  if ([...plain].length > CUE_TEXT_MAX) throw invalid('error.captionCueTextTooLong', { max: CUE_TEXT_MAX });
  return plain;
}

const stamp = (ms: number) => {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
};

// Cue text is plain: the three characters WebVTT reads as markup are written as entities.
const escapeCue = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The cues as a WebVTT file. */
export function toWebVTT(cues: Cue[]): string {
  return `WEBVTT\n\n${cues.map((c) => `${stamp(c.start)} --> ${stamp(c.end)}\n${escapeCue(c.text)}\n`).join('\n')}`;
}
