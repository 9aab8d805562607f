/**
 * The request being answered, for code that runs on its behalf without being handed it: the log (every line of a
 * request carries its id) and the page middleware (which puts it in `Astro.locals`). server.ts runs each request in
 * its scope. The storage is kept on `globalThis`, so the Astro build's own copy of this module sees the same one.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestContext } from './request-context.ts';

const KEY = Symbol.for('shanying.request');
const scope: AsyncLocalStorage<RequestContext> = ((globalThis as { [KEY]?: AsyncLocalStorage<RequestContext> })[KEY] ??=
  new AsyncLocalStorage<RequestContext>());

/** Runs `fn` on behalf of the request `context`: what it starts, now or later, finds that request. */
export function inRequest<T>(context: RequestContext, fn: () => T): T {
  return scope.run(context, fn);
}

/** The request being answered, or undefined outside any (start-up, timers, jobs). */
export function currentRequest(): RequestContext | undefined {
  return scope.getStore();
}
