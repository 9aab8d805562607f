/** Channel banners an editor uploads: checked by content, cropped to the banner's size, stored under a new key. */
import { randomBytes } from 'node:crypto';
import { mkdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { t } from '../../i18n/t.ts';
import { BANNER_MAX_BYTES } from '../../shared/staff.ts';
import { formatBytes } from '../../shared/format-bytes.ts';
import { db } from '../db/client.ts';
import { toWebp } from '../media/images.ts';
import { uploadsDir } from '../media/paths.ts';
import { mediaStore } from '../media/store.ts';
import { tooLarge } from '../errors.ts';
import { audit } from './audit.ts';

/** The channel page draws its banner at 1200×240. */
const BANNER = { width: 1200, height: 240 };

/** Stores an uploaded banner for channel `channelId`; the media path an editor then saves in the channel's form. */
export async function storeBanner(actorId: number, channelId: string, bytes: Uint8Array): Promise<string> {
  const what = t('staff.content.field.banner');
  if (bytes.byteLength > BANNER_MAX_BYTES)
    throw tooLarge('error.imageTooLarge', { what, max: formatBytes(BANNER_MAX_BYTES) });
  const webp = await toWebp(bytes, { what, ...BANNER });
  const key = `banners/channel-${channelId}-${Date.now().toString(36)}${randomBytes(3).toString('hex')}.webp`;
  const dir = uploadsDir();
  await mkdir(dir, { recursive: true });
  const local = path.join(dir, `banner-${randomBytes(6).toString('hex')}.webp`);
  await writeFile(local, webp);
  try {
    await mediaStore().put(local, key);
  } finally {
    await unlink(local).catch(() => {});
  }
  await audit(db(), {
    actorId,
    action: 'content.upload',
    targetType: 'channels',
    targetId: channelId,
    after: { banner: key },
  });
  return key;
}
