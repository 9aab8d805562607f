/**
 * A line or bar chart as SVG markup, with no chart library: the server draws it, and so can the browser (a phone's
 * narrow drawing, src/client/stats-charts.ts). Colours come from the theme through `currentColor` and the semantic text
 * classes, so one markup serves both themes. The markup is kept short, as it is inline in the page: no tooltip per
 * mark (the page's script shows the day under the pointer) and, past MARKED_POINTS, no dot per point.
 */

export interface ChartPoint {
  /** The x-axis label (a day, e.g. 11-24). */
  label: string;
  value: number;
}

export interface ChartOptions {
  kind: 'line' | 'bar';
  /** The chart's accessible name (its <title>). */
  title: string;
  /** A sentence for assistive technology (its <desc>), e.g. the total and the best day. */
  description?: string;
  /** The viewBox; the markup scales to its container's width. */
  width: number;
  height: number;
  /** How values are written on the axis and the points (e.g. 1.2万); plain numbers by default. */
  format?: (n: number) => string;
  /** Write each point's value above it when there are at most this many points; else only the greatest's. */
  valueLabelsUpTo?: number;
}

export const PAD = { top: 18, right: 12, bottom: 26, left: 44 };
/** A line chart marks each point with a dot, and bars get rounded corners, up to this many points. */
const MARKED_POINTS = 14;
const FONT = 11;
/** Least room, in viewBox units, between two day labels on the x axis. */
const LABEL_GAP = 46;
const TICKS = 4;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
/** Coordinates with at most one decimal: short markup, no float noise. */
const r1 = (x: number) => String(Math.round(x * 10) / 10);

/** A "nice" step (1, 2 or 5 times a power of ten) that covers `span` in about `count` steps. */
export function niceStep(span: number, count: number): number {
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const unit = raw / power;
  return (unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10) * power;
}

/** The y axis: whole-number ticks from below the least value (or 0) to above the greatest (or 0). */
export function yTicks(values: number[]): number[] {
  const lo = Math.min(0, ...values);
  const hi = Math.max(0, ...values);
  if (lo === hi) return [0, 1];
  const step = Math.max(1, niceStep(hi - lo, TICKS));
  const ticks: number[] = [];
  for (let v = Math.floor(lo / step) * step; v < hi + step; v += step) {
    ticks.push(v);
    if (v >= hi) break;
  }
  return ticks;
}

/** Which labels to write: every k-th, counted back from the last (today is always named). */
function labelStride(count: number, plotWidth: number): number {
  return Math.max(1, Math.ceil(count / Math.max(1, Math.floor(plotWidth / LABEL_GAP))));
}

/** The chart as an <svg> element (role="img", with <title> and <desc>). */
export function svgChart(points: ChartPoint[], opts: ChartOptions): string {
  const { width, height, kind } = opts;
  const format = opts.format ?? String;
  const plotW = width - PAD.left - PAD.right;
  const plotH = height - PAD.top - PAD.bottom;
  const ticks = yTicks(points.map((p) => p.value));
  const lo = ticks[0]!;
  const hi = ticks[ticks.length - 1]!;
  const y = (v: number) => PAD.top + plotH - ((v - lo) / (hi - lo)) * plotH;
  // Each point owns an equal band; lines join the bands' centres, bars stand in them.
  const band = plotW / Math.max(1, points.length);
  const x = (i: number) => PAD.left + band * (i + 0.5);
  const stride = labelStride(points.length, plotW);
  const showValues = points.length <= (opts.valueLabelsUpTo ?? 10);
  const out: string[] = [];

  out.push(
    `<svg viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(opts.title)}"` +
      ` class="block h-auto w-full" font-size="${FONT}">`,
    `<title>${esc(opts.title)}</title>`,
  );
  if (opts.description) out.push(`<desc>${esc(opts.description)}</desc>`);

  // Grid lines (one path: the markup is inline in the page) and y-axis values.
  const across = (v: number) => `M${PAD.left} ${r1(y(v))}H${width - PAD.right}`;
  out.push(`<path class="text-line" stroke="currentColor" d="${ticks.map(across).join('')}"/>`);
  out.push(`<g class="text-secondary" fill="currentColor" text-anchor="end">`);
  for (const t of ticks) out.push(`<text x="${PAD.left - 6}" y="${r1(y(t) + FONT / 3)}">${esc(format(t))}</text>`);
  out.push('</g>');

  // The zero line and the x axis's day labels.
  out.push(`<path class="text-muted" stroke="currentColor" d="${across(0)}"/>`);
  out.push(`<g class="text-secondary" fill="currentColor" text-anchor="middle">`);
  points.forEach((p, i) => {
    if ((points.length - 1 - i) % stride === 0)
      out.push(`<text x="${r1(x(i))}" y="${height - 8}">${esc(p.label)}</text>`);
  });
  out.push('</g>');

  // The data, in the accent colour.
  const marked = points.length <= MARKED_POINTS;
  out.push('<g class="text-accent" fill="currentColor">');
  if (kind === 'line' && points.length > 0) {
    const path = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${r1(x(i))} ${r1(y(p.value))}`).join('');
    // The axis always holds zero (yTicks), so the area closes on the zero line.
    const base = r1(y(0));
    out.push(`<path d="${path}L${r1(x(points.length - 1))} ${base}L${r1(x(0))} ${base}Z" fill-opacity="0.1"/>`);
    out.push(
      `<path d="${path}" fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round" stroke-linecap="round"/>`,
    );
    if (marked) {
      out.push('<g stroke="currentColor">');
      points.forEach((p, i) => out.push(`<circle cx="${r1(x(i))}" cy="${r1(y(p.value))}" r="3.5"/>`));
      out.push('</g>');
    }
  } else if (kind === 'bar') {
    const barW = Math.max(1, Math.min(28, band * 0.6));
    const bars = points.map((p, i) => ({
      left: r1(x(i) - barW / 2),
      top: r1(Math.min(y(p.value), y(0))),
      h: r1(Math.abs(y(p.value) - y(0))),
    }));
    // Many thin bars as one path: a rectangle each, corners square (they would not show at that width).
    if (marked)
      for (const b of bars) out.push(`<rect x="${b.left}" y="${b.top}" width="${r1(barW)}" height="${b.h}" rx="2"/>`);
    else out.push(`<path d="${bars.map((b) => `M${b.left} ${b.top}h${r1(barW)}v${b.h}h-${r1(barW)}Z`).join('')}"/>`);
  }
  out.push('</g>');

  const peak = points.reduce((best, p, i) => (p.value > (points[best]?.value ?? 0) ? i : best), -1);
  if (showValues || peak >= 0) {
    // A halo of the card's colour keeps a value readable where it crosses the line.
    out.push(
      `<g class="text-secondary stroke-surface" fill="currentColor" stroke-width="3" paint-order="stroke" text-anchor="middle">`,
    );
    points.forEach((p, i) => {
      if (!showValues && i !== peak) return;
      const above = p.value >= 0;
      const at = y(p.value) + (above ? -6 : FONT + 4);
      out.push(`<text x="${r1(x(i))}" y="${r1(at)}">${esc(format(p.value))}</text>`);
    });
    out.push('</g>');
  }
  out.push('</svg>');
  return out.join('');
}
