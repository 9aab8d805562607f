import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAudioOnly, makeClip, makeFakeVideo, makeImage, makeTruncated } from '../../../tests/setup/clips.ts';
import { t } from '../../i18n/t.ts';
import { ServiceError } from '../errors.ts';
import { checkCover, checkVideo } from './checks.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'checks-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The Chinese message a refusal shows. */
async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ServiceError);
  return t((error as ServiceError).key, (error as ServiceError).vars);
}

describe('checkVideo', () => {
  it('accepts a 2 s 1080x1920 clip and reads its size and duration', async () => {
    const info = await checkVideo(makeClip(dir, 'tall.mp4', { width: 1080, height: 1920 }));
    expect(info).toMatchObject({ width: 1080, height: 1920, hasAudio: true, videoCodec: 'h264' });
    expect(info.durationMs).toBeGreaterThanOrEqual(1900);
    expect(info.durationMs).toBeLessThanOrEqual(2200);
  });

  it.each(['clip.mov', 'clip.mkv'])('accepts %s', async (name) => {
    await expect(checkVideo(makeClip(dir, name))).resolves.toMatchObject({ width: 180, height: 320 });
  });

  it('judges the content, not the name: a WebM named .mp4 passes', async () => {
    await expect(checkVideo(makeClip(dir, 'really-webm.mp4', { format: 'webm' }))).resolves.toMatchObject({ width: 180, height: 320 });
  });

  it('refuses a text file renamed .mp4', async () => {
    expect(await refusal(checkVideo(makeFakeVideo(dir)))).toBe('文件不是支持的视频格式，请上传 MP4、MOV、WebM 或 MKV 视频');
  });

  it('refuses an audio-only file', async () => {
    expect(await refusal(checkVideo(makeAudioOnly(dir)))).toBe('文件中没有视频画面，请上传视频文件');
  });

  it('refuses a truncated file', async () => {
    const whole = makeClip(dir, 'whole.mp4');
    expect(await refusal(checkVideo(makeTruncated(dir, whole)))).toBe('视频文件已损坏或不完整，无法读取');
  });

  it('refuses a clip shorter than a second', async () => {
    expect(await refusal(checkVideo(makeClip(dir, 'short.mp4', { seconds: 0.5 })))).toBe('视频时长不能短于1秒');
  });
});

describe('checkCover', () => {
  it('accepts a PNG and refuses a video passed as a cover', async () => {
    await expect(checkCover(makeImage(dir))).resolves.toMatchObject({ width: 320, height: 240 });
    expect(await refusal(checkCover(makeClip(dir, 'not-a-cover.mp4')))).toBe('封面需为 JPG、PNG 或 WebP 图片');
  });
});
