/**
 * Gives the browser a turn, to handle input and paint, before the caller goes on: `scheduler.yield()` where the browser
 * has it (the caller's rest keeps its place ahead of other queued work), else a message-channel turn (a timer's would
 * wait its 4 ms clamp). Long start-up work awaits it between its pieces, so that no piece holds a phone's main thread
 * past a frame.
 */
export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(null);
  });
}
