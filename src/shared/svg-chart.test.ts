import { describe, expect, it } from 'vitest';
import { niceStep, svgChart, yTicks, type ChartPoint } from './svg-chart.ts';

const week: ChartPoint[] = [3, 0, 7, 12, 5, 0, 9].map((value, i) => ({ label: `11-${18 + i}`, value }));
const month: ChartPoint[] = Array.from({ length: 30 }, (_, i) => ({ label: `d${i}`, value: (i * 7) % 11 }));
const count = (svg: string, pattern: RegExp) => (svg.match(pattern) ?? []).length;
const base = { title: '播放量趋势（近7天）', width: 560, height: 220 };

describe('yTicks', () => {
  it.each([
    [
      [3, 0, 7, 12, 5],
      [0, 5, 10, 15],
    ],
    [
      [0, 0, 0],
      [0, 1],
    ],
    [[1], [0, 1]],
    [[3], [0, 1, 2, 3]],
    [
      [-2, 1],
      [-2, -1, 0, 1],
    ],
    [[12_345], [0, 5000, 10_000, 15_000]],
  ])('%j → %j', (values, ticks) => {
    expect(yTicks(values)).toEqual(ticks);
  });
  it('steps by 1, 2 or 5 times a power of ten', () => {
    expect([niceStep(7, 4), niceStep(40, 4), niceStep(130, 4), niceStep(0.3, 4)]).toEqual([2, 10, 50, 0.1]);
  });
});

describe('svgChart', () => {
  it('is an image with a name, a description and no script', () => {
    const svg = svgChart(week, { ...base, kind: 'line', description: '合计36' });
    expect(svg).toMatch(/^<svg [^>]*role="img" aria-label="播放量趋势（近7天）"/);
    expect(svg).toContain('<title>播放量趋势（近7天）</title><desc>合计36</desc>');
    expect(svg).not.toMatch(/<script|on\w+=|style=/);
    expect(svg.endsWith('</svg>')).toBe(true);
  });

  it('draws a line with a marker and a value per day', () => {
    const svg = svgChart(week, { ...base, kind: 'line' });
    expect(count(svg, /<circle /g)).toBe(7);
    expect(count(svg, /<title>/g), 'only the chart’s name: the page shows the day under the pointer').toBe(1);
    for (const p of week) expect(svg).toContain(`>${p.label}</text>`);
    const marks = /<g class="text-accent"[^>]*>(.*?)<g stroke/.exec(svg)![1]!;
    expect(count(marks, /<path /g), 'the area and the line').toBe(2);
    const values = /<g class="text-secondary stroke-surface"[^>]*>(.*?)<\/g>/.exec(svg)![1]!;
    expect([...values.matchAll(/>(-?\d+)<\/text>/g)].map((m) => Number(m[1]))).toEqual(week.map((p) => p.value));
  });

  it('draws one bar per day (flat for a zero), a negative day hanging below the zero line', () => {
    const svg = svgChart([...week, { label: '11-25', value: -2 }], { ...base, kind: 'bar' });
    const bars = [...svg.matchAll(/<rect x="[\d.]+" y="([\d.]+)" width="[\d.]+" height="([\d.]+)"/g)].map((m) => ({
      y: Number(m[1]),
      h: Number(m[2]),
    }));
    expect(bars).toHaveLength(8);
    expect(bars[1]!.h, 'the day with 0').toBe(0);
    const zero = Number(/<path class="text-muted"[^>]* d="M[\d.]+ ([\d.]+)H[\d.]+"/.exec(svg)![1]);
    expect(bars[7]!.y, 'the day with -2 starts at the zero line').toBe(zero);
    expect(bars[3]!.y + bars[3]!.h, 'the day with 12 ends on it').toBeCloseTo(zero, 0);
  });

  it('draws many bars as one path of rectangles, and a long line without dots', () => {
    const bars = svgChart(month, { ...base, kind: 'bar' });
    expect(count(bars, /<rect /g)).toBe(0);
    const d = /<g class="text-accent"[^>]*><path d="([^"]+)"/.exec(bars)![1]!;
    expect(count(d, /M/g)).toBe(30);
    expect(count(d, /Z/g)).toBe(30);
    expect(count(svgChart(month, { ...base, kind: 'line' }), /<circle /g)).toBe(0);
  });

  it('names fewer days when they would crowd, always today, and writes only the best day’s value', () => {
    const svg = svgChart(month, { ...base, kind: 'line' });
    expect(svg).toContain('>d29</text>');
    const labels = month.filter((p) => svg.includes(`>${p.label}</text>`)).length;
    expect(labels).toBeGreaterThan(4);
    expect(labels).toBeLessThanOrEqual(Math.floor((560 - 56) / 46));
    const values = /<g class="text-secondary stroke-surface"[^>]*>(.*?)<\/g>/.exec(svg)![1]!;
    expect(count(values, /<text /g)).toBe(1);
    expect(values).toContain(`>${Math.max(...month.map((p) => p.value))}</text>`);
  });

  it('formats values, escapes text and survives an all-zero or empty series', () => {
    const svg = svgChart([{ label: '<b>', value: 12_000 }], {
      ...base,
      kind: 'bar',
      title: 'A & B',
      format: (n) => `${n / 10_000}万`,
    });
    expect(svg).toContain('&lt;b&gt;');
    expect(svg).toContain('<title>A &amp; B</title>');
    expect(svg).toContain('>1.2万</text>');
    for (const points of [week.map((p) => ({ ...p, value: 0 })), []]) {
      for (const kind of ['line', 'bar'] as const)
        expect(svgChart(points, { ...base, kind })).not.toMatch(/NaN|Infinity/);
    }
  });
});
