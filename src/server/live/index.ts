/** Live streaming in the app server: RTMP ingest on RTMP_PORT and the playback doors on the site's port. */
import { logLine } from '../log.ts';
import { liveConfig } from './config.ts';
import { stopAllHls } from './hls.ts';
import { startIngest, stopIngest } from './ingest.ts';
import { endAll } from './local.ts';

export { isLivePath, serveLive } from './door.ts';

/** Starts the RTMP server (unless RTMP_PORT=0); a port that cannot be had is logged, and the site serves on. */
export async function startLive(): Promise<void> {
  try {
    const port = await startIngest();
    if (port !== null)
      logLine('info', `RTMP ingest on port ${port} (rtmp://…:${port}/live, the stream key as the stream name)`);
  } catch (error) {
    logLine('error', `RTMP ingest could not listen on port ${liveConfig().rtmpPort}; live publishing is off here`, {
      error,
    });
  }
}

/** Ends every stream this server holds and stops the RTMP server. */
export async function stopLive(): Promise<void> {
  endAll();
  stopAllHls();
  await stopIngest();
}
