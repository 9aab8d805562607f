/**
 * Profile pictures: an uploaded image checked by its content (magic bytes, then a real decode), never by its name or
 * declared type, cropped to a fixed size and written as WebP with its metadata (EXIF, GPS) dropped. sharp (libvips)
 * does the work on libuv's threads, so a large decode does not hold up other requests.
 */
import { fileTypeFromBuffer } from 'file-type';
import sharp, { type Metadata } from 'sharp';
import { IMAGE_MAX_SIDE } from '../../shared/profile-edit.ts';
import { invalid } from '../errors.ts';

/** Formats accepted, as file-type names them. */
const FORMATS = new Set(['jpg', 'png', 'webp']);
/** Decoded pixels refused before decoding: a small file that unpacks to a huge canvas (a decompression bomb). */
const MAX_PIXELS = 40_000_000;
const TIMEOUT_SECONDS = 20;
const WEBP_QUALITY = 82;

/** What the refusal calls the picture ('头像', '背景图'). */
export interface ImageTarget {
  what: string;
  width: number;
  height: number;
}

/** The picture in `bytes` cropped (centred) to `target`'s size, as WebP bytes; throws `invalid` for anything else. */
export async function toWebp(bytes: Uint8Array, target: ImageTarget): Promise<Buffer> {
  const { what } = target;
  const type = await fileTypeFromBuffer(bytes).catch(() => undefined);
  if (!type || !FORMATS.has(type.ext)) throw invalid('error.imageNotImage', { what });
  const input = () => sharp(bytes, { limitInputPixels: MAX_PIXELS, failOn: 'error', animated: false });
  let meta: Metadata;
  try {
    meta = await input().metadata();
  } catch {
    throw invalid('error.imageBroken', { what });
  }
  const { width = 0, height = 0 } = meta;
  if (width > IMAGE_MAX_SIDE || height > IMAGE_MAX_SIDE || width * height > MAX_PIXELS) {
    throw invalid('error.imageTooBig', { what, max: IMAGE_MAX_SIDE });
  }
  if (!width || !height) throw invalid('error.imageBroken', { what });
  try {
    return await input()
      .timeout({ seconds: TIMEOUT_SECONDS })
      // Phones store portraits sideways with an EXIF turn; apply it before cropping.
      .rotate()
      .resize(target.width, target.height, { fit: 'cover', position: 'centre' })
      .webp({ quality: WEBP_QUALITY })
      .toBuffer();
  } catch {
    // A header that reads but pixels that do not (a truncated file).
    throw invalid('error.imageBroken', { what });
  }
}
