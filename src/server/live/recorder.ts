/**
 * Recording a broadcast for its 回放: every stretch the publisher sends (a publisher that leaves and comes back makes a
 * new one) is written here as the FLV tags viewers get; when the broadcast ends, the stretches are joined into one
 * MP4 (stream copy, no encoding) and handed to the upload pipeline like any upload, which makes the ladder and the
 * poster and publishes the work; the room then links it as 回放.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { t } from '../../i18n/t.ts';
import { logLine } from '../log.ts';
import { dataDir } from '../media/paths.ts';
import { runTool } from '../media/run.ts';
import { attachReplay, type Ended } from '../services/live-broadcasts.ts';
import { createWork } from '../services/studio.ts';
import { finishUpload, registerUpload, uploadFiles } from '../services/uploads.ts';
import type { LiveStream, Subscriber } from './stream.ts';

/** The longest 回放 kept (the upload pipeline's own limit is for uploads). */
export const RECORDING_MAX_SEC = 4 * 60 * 60;
/** A recording shorter than this is not published (the upload pipeline's shortest). */
const RECORDING_MIN_BYTES = 1024;

export class Recording {
  readonly roomId: number;
  private readonly dir: string;
  private readonly parts: string[] = [];
  private file: WriteStream | null = null;
  private sub: Subscriber | null = null;
  private source: LiveStream | null = null;

  constructor(roomId: number) {
    this.roomId = roomId;
    this.dir = path.join(dataDir(), 'live-recordings', `${roomId}-${randomBytes(4).toString('hex')}`);
  }

  /** Starts writing a new stretch from `stream`. */
  async record(stream: LiveStream): Promise<void> {
    this.stop();
    await mkdir(this.dir, { recursive: true });
    const part = path.join(this.dir, `part-${this.parts.length}.flv`);
    this.parts.push(part);
    const file = createWriteStream(part);
    file.on('error', (error) => logLine('warn', 'live recording write failed', { roomId: this.roomId, error }));
    this.file = file;
    this.source = stream;
    this.sub = {
      write: (chunk) => {
        file.write(chunk);
        return true;
      },
      end: () => file.end(),
    };
    stream.subscribe(this.sub);
  }

  /** Stops the current stretch (the publisher left). */
  stop(): void {
    if (this.sub && this.source) this.source.unsubscribe(this.sub);
    this.file?.end();
    this.file = null;
    this.sub = null;
    this.source = null;
  }

  private async closed(): Promise<void> {
    const f = this.file;
    this.stop();
    if (f && !f.closed) await new Promise<void>((r) => f.once('close', () => r()));
  }

  /** Joins the stretches and hands them to the upload pipeline as the host's work; answers the work's id. */
  async publish(ended: Ended): Promise<number | null> {
    await this.closed();
    try {
      const parts: string[] = [];
      for (const p of this.parts)
        if (((await stat(p).catch(() => null))?.size ?? 0) > RECORDING_MIN_BYTES) parts.push(p);
      if (parts.length === 0) return null;
      const id = randomBytes(16).toString('hex');
      const { data } = uploadFiles(id);
      await mkdir(path.dirname(data), { recursive: true });
      const list = path.join(this.dir, 'parts.txt');
      await writeFile(list, parts.map((p) => `file '${p.replaceAll("'", "'\\''")}'\n`).join(''));
      await runTool(
        'ffmpeg',
        [
          '-hide_banner',
          '-loglevel',
          'error',
          '-f',
          'concat',
          '-safe',
          '0',
          '-i',
          list,
          '-c',
          'copy',
          '-movflags',
          '+faststart',
          '-f',
          'mp4',
          '-y',
          data,
        ],
        { timeoutMs: 10 * 60_000 },
      );
      const { size } = await stat(data);
      await registerUpload({
        id,
        userId: ended.hostId,
        kind: 'video',
        fileName: `live-${ended.roomId}.mp4`,
        sizeBytes: size,
      });
      await finishUpload(id, RECORDING_MAX_SEC);
      const work = await createWork(ended.hostId, {
        uploadId: id,
        title: t('live.replayTitle', { title: ended.title }),
        channelId: ended.channelId,
      });
      await attachReplay(ended.roomId, work.id);
      logLine('info', 'live recording handed to the upload pipeline', {
        roomId: ended.roomId,
        workId: work.id,
        bytes: size,
      });
      return work.id;
    } catch (error) {
      logLine('error', 'live recording could not be published', { roomId: ended.roomId, error });
      return null;
    } finally {
      await rm(this.dir, { recursive: true, force: true });
    }
  }

  /** Drops what was recorded (the broadcast ended elsewhere, or the process is stopping). */
  async discard(): Promise<void> {
    await this.closed();
    await rm(this.dir, { recursive: true, force: true });
  }
}
