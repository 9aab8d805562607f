/**
 * The long main-thread tasks of a Chrome trace, each with what it spent its time on (bench/long-tasks.mjs and
 * bench/lighthouse.mjs's DETAILS print them).
 */

/** What a trace event is, in a few words: its name, and the script it runs where it has one. */
export function label(e) {
  const d = e.args?.data ?? {};
  const url = (d.url || d.stackTrace?.[0]?.url || '').replace(/^https?:\/\/[^/]+/, '');
  if (e.name === 'EventDispatch') return `EventDispatch ${d.type}`;
  if (e.name === 'FunctionCall') return `FunctionCall ${url || ''} ${d.functionName || ''}`.trim();
  if (e.name === 'EvaluateScript' || e.name === 'v8.compile' || e.name === 'v8.compileModule')
    return `${e.name} ${url || e.args?.fileName || ''}`.trim();
  if (e.name === 'v8.evaluateModule') return `v8.evaluateModule ${url || ''}`.trim();
  return e.name;
}

/** The page's navigation in a trace: the main frame's navigationStart for a document. */
export const pageNavigation = (events) =>
  events.find((e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame && e.args.data.documentLoaderURL);

/**
 * The tasks of at least `long` ms on the main thread of `nav`'s renderer, each with its time spent by label (self time
 * over its whole subtree). Times are the thread's CPU time (tdur) unless `wall`, multiplied by `scale`; `start` is ms
 * after `nav`.
 */
export function longTasks(events, nav, { long = 50, scale = 1, wall = false } = {}) {
  const navStart = nav.ts;
  // The page's renderer only: a trace holds every process of the browser.
  const main = new Set();
  for (const e of events)
    if (e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && e.pid === nav.pid)
      main.add(`${e.pid}:${e.tid}`);
  const onMain = events.filter((e) => main.has(`${e.pid}:${e.tid}`) && e.ph === 'X' && e.dur !== undefined);
  onMain.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  // Judged by the thread's own CPU time (tdur) where the trace has it: on a loaded machine a task's wall time also
  // counts the time the thread waited for a core, which is no part of the page.
  const cpu = (e) => (wall ? e.dur : (e.tdur ?? e.dur)) * scale;
  const tasks = onMain.filter((e) => e.name === 'RunTask' && cpu(e) >= long * 1000);
  return tasks.map((task) => {
    const end = task.ts + task.dur;
    const inside = onMain.filter(
      (e) => e !== task && e.tid === task.tid && e.pid === task.pid && e.ts >= task.ts && e.ts + e.dur <= end,
    );
    // Self time by label, over the whole subtree: each event's duration less its direct children's.
    const self = new Map();
    const stack = [];
    for (const e of inside) {
      while (stack.length && stack[stack.length - 1].ts + stack[stack.length - 1].dur <= e.ts) stack.pop();
      const parent = stack[stack.length - 1];
      if (parent) parent.childDur = (parent.childDur ?? 0) + cpu(e);
      stack.push(e);
    }
    for (const e of inside) {
      const key = label(e);
      self.set(key, (self.get(key) ?? 0) + (cpu(e) - (e.childDur ?? 0)));
    }
    const top = [...self.entries()]
      .filter(([, us]) => us >= 2000)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8)
      .map(([k, us]) => `${(us / 1000).toFixed(0)} ${k}`);
    // Wall-time labels are scaled too: `top` reads in the same unit as `ms`.
    const first = inside[0] ? label(inside[0]) : '';
    return {
      ts: task.ts,
      end: task.ts + task.dur,
      start: (task.ts - navStart) / 1000,
      ms: cpu(task) / 1000,
      wall: (task.dur * scale) / 1000,
      first,
      top,
    };
  });
}

/**
 * The JavaScript samples of `nav`'s renderer (the trace category disabled-by-default-v8.cpu_profiler): each sample's
 * time (µs, the trace's clock) and its stack, innermost frame first, as "function url:line".
 */
export function jsSamples(events, nav) {
  const profiles = new Map();
  for (const e of events) {
    if (e.pid !== nav.pid) continue;
    if (e.name === 'Profile') profiles.set(e.id, { t: e.args.data.startTime, nodes: new Map(), out: [] });
    if (e.name !== 'ProfileChunk') continue;
    const p = profiles.get(e.id);
    if (!p) continue;
    const { cpuProfile = {}, timeDeltas = [] } = e.args.data;
    for (const n of cpuProfile.nodes ?? []) p.nodes.set(n.id, n);
    (cpuProfile.samples ?? []).forEach((id, i) => {
      p.t += timeDeltas[i] ?? 0;
      p.out.push({ t: p.t, id });
    });
  }
  const samples = [];
  for (const p of profiles.values())
    for (const { t, id } of p.out) {
      const stack = [];
      for (let n = p.nodes.get(id); n; n = p.nodes.get(n.parent)) {
        const f = n.callFrame;
        const url = (f.url ?? '').replace(/^https?:\/\/[^/]+/, '');
        stack.push(`${f.functionName || '(anonymous)'} ${url}:${(f.lineNumber ?? 0) + 1}:${(f.columnNumber ?? 0) + 1}`);
      }
      samples.push({ t, stack });
    }
  return samples.sort((a, b) => a.t - b.t);
}

/**
 * Within [from, to] (µs): the functions holding most samples, as self, as the outermost script frame, and as the
 * innermost frame of the page's own modules.
 */
export function hotFunctions(samples, from, to, top = 6) {
  const self = new Map();
  const outer = new Map();
  const own = new Map();
  let n = 0;
  for (const s of samples) {
    if (s.t < from || s.t > to) continue;
    const frames = s.stack.filter(
      (f) => !f.startsWith('(root)') && !f.startsWith('(program)') && !f.startsWith('(idle)'),
    );
    if (!frames.length) continue;
    n += 1;
    self.set(frames[0], (self.get(frames[0]) ?? 0) + 1);
    const out = frames.findLast((f) => / \/[^:]/.test(f)) ?? frames[frames.length - 1];
    outer.set(out, (outer.get(out) ?? 0) + 1);
    // The innermost frame of the page's own code (not React's, whose chunk is named client.*).
    const mine = frames.find((f) => / \/_astro\/(?!client\.)/.test(f));
    if (mine) own.set(mine, (own.get(mine) ?? 0) + 1);
  }
  const rank = (m) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, c]) => `${c} ${k}`);
  return { n, self: rank(self), outer: rank(outer), own: rank(own) };
}

/**
 * Total blocking time by the renderer's own CPU: over the tasks of `nav`'s main thread that start `after` ms or later,
 * the part of each beyond `long` ms once its CPU time (tdur) is multiplied by `scale`. Lighthouse's simulated TBT
 * scales the observed tasks' wall time instead, so on a loaded machine it also counts the time the thread waited for
 * a core; this figure leaves that out.
 */
export function blockingByCpu(events, nav, { after = 0, scale = 1, long = 50 } = {}) {
  return longTasks(events, nav, { long, scale })
    .filter((t) => t.start >= after)
    .reduce((sum, t) => sum + t.ms - long, 0);
}

/**
 * CPU time (ms, the trace's tdur) of each thread of the browser between `from` and `to` ms after `nav`, busiest first,
 * as "process/thread": what else held the machine's cores while the page loaded. Only a thread's outermost events count,
 * so nested ones are not added twice.
 */
export function threadCpu(events, nav, from, to) {
  const names = new Map();
  const processes = new Map();
  for (const e of events) {
    if (e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args?.name);
    if (e.name === 'process_name') processes.set(e.pid, e.args?.name);
  }
  const start = nav.ts + from * 1000;
  const end = nav.ts + to * 1000;
  const inWindow = events
    .filter((e) => e.ph === 'X' && e.dur && e.ts >= start && e.ts < end)
    .sort((a, b) => a.ts - b.ts);
  const busyUntil = new Map();
  const cpu = new Map();
  for (const e of inWindow) {
    const key = `${e.pid}:${e.tid}`;
    if ((busyUntil.get(key) ?? 0) > e.ts) continue;
    busyUntil.set(key, e.ts + e.dur);
    cpu.set(key, (cpu.get(key) ?? 0) + (e.tdur ?? 0));
  }
  const byName = new Map();
  for (const [key, us] of cpu) {
    const [pid] = key.split(':');
    const page = Number(pid) === nav.pid ? ' (the page)' : '';
    const name = `${processes.get(Number(pid)) ?? 'process'}${page}/${names.get(key) ?? 'thread'}`;
    byName.set(name, (byName.get(name) ?? 0) + us / 1000);
  }
  return [...byName].sort((a, b) => b[1] - a[1]);
}
