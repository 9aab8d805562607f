/**
 * What 作品数据's charts do in the browser. The server draws each chart once, wide; a phone gets a narrow drawing of
 * the same figures (its labels keep their size instead of shrinking with the wide one), made here from the chart's
 * table. Over either drawing, the pointer (or a tap) shows that day's figure. The figures come from the table each
 * chart carries for screen readers, so the page sends them once.
 */
import { formatCountWith } from '../shared/format-count.ts';
import { PAD, svgChart, type ChartPoint } from '../shared/svg-chart.ts';

const CHART = '[data-stats-chart]';
const NARROW = { width: 320, height: 200, valueLabelsUpTo: 7 };
const WIDE_SCREEN = '(min-width: 768px)';

interface Figures {
  points: ChartPoint[];
  format: (n: number) => string;
}

const read = new WeakMap<HTMLElement, Figures>();

/**
 * The chart's days and figures, from its table (the day as 11-27, as the axis names it), and how it writes a count
 * (the catalogue's units, which the server puts in data-units). Read once per chart: the pointer asks on every move.
 */
function figuresOf(chart: HTMLElement): Figures {
  let figures = read.get(chart);
  if (!figures) {
    const [tenThousand, hundredMillion] = (chart.dataset.units ?? '').split(',') as [string, string];
    figures = {
      points: [...chart.querySelectorAll('tbody tr')].map((row) => ({
        label: (row.querySelector('th')?.textContent ?? '').slice(5),
        value: Number(row.querySelector('td')?.textContent ?? 0),
      })),
      format: (n) => formatCountWith(n, [tenThousand, hundredMillion]),
    };
    read.set(chart, figures);
  }
  return figures;
}

/** Draws the narrow chart into its empty slot, once. */
function drawNarrow(chart: HTMLElement): void {
  const slot = chart.querySelector<HTMLElement>('[data-narrow]');
  if (!slot || slot.firstElementChild) return;
  const kind = chart.dataset.kind === 'bar' ? 'bar' : 'line';
  const { points, format } = figuresOf(chart);
  // svgChart escapes every text it writes; the figures and names are the page's own.
  slot.innerHTML = svgChart(points, {
    ...NARROW,
    kind,
    title: chart.dataset.title ?? '',
    description: chart.dataset.description,
    format,
  });
}

/** The day under the pointer in a drawing, by its band on the plot; undefined outside the plot. */
function dayAt(svg: SVGSVGElement, clientX: number, days: number): number | undefined {
  const box = svg.getBoundingClientRect();
  const width = svg.viewBox.baseVal.width;
  if (!box.width || !width || !days) return undefined;
  const x = ((clientX - box.left) / box.width) * width;
  const band = (width - PAD.left - PAD.right) / days;
  const index = Math.floor((x - PAD.left) / band);
  return index >= 0 && index < days ? index : undefined;
}

function tooltip(chart: HTMLElement): HTMLElement {
  let tip = chart.querySelector<HTMLElement>('[data-tip]');
  if (!tip) {
    tip = document.createElement('div');
    tip.dataset.tip = '';
    // The table already gives screen readers every figure.
    tip.setAttribute('aria-hidden', 'true');
    tip.className =
      'pointer-events-none absolute z-10 rounded-md bg-raised px-2 py-1 text-xs text-primary shadow-md whitespace-nowrap';
    tip.hidden = true;
    chart.append(tip);
  }
  return tip;
}

function point(event: PointerEvent): void {
  const chart = (event.target as Element).closest<HTMLElement>(CHART);
  const svg = (event.target as Element).closest<SVGSVGElement>('svg');
  if (!chart || !svg) return;
  const { points, format } = figuresOf(chart);
  const index = dayAt(svg, event.clientX, points.length);
  const tip = tooltip(chart);
  if (index === undefined) {
    tip.hidden = true;
    return;
  }
  const day = points[index]!;
  tip.textContent = `${day.label}: ${format(day.value)}`;
  tip.hidden = false;
  const box = chart.getBoundingClientRect();
  const left = Math.min(Math.max(event.clientX - box.left + 12, 0), box.width - tip.offsetWidth);
  tip.style.left = `${left}px`;
  tip.style.top = `${Math.max(event.clientY - box.top - tip.offsetHeight - 8, 0)}px`;
}

/** Starts the charts on the page: narrow drawings while the screen is narrow, the day's figure under the pointer. */
export function startStatsCharts(): void {
  const charts = [...document.querySelectorAll<HTMLElement>(CHART)];
  if (charts.length === 0) return;
  const wide = matchMedia(WIDE_SCREEN);
  const fit = () => {
    if (!wide.matches) charts.forEach(drawNarrow);
  };
  fit();
  wide.addEventListener('change', fit);
  for (const chart of charts) {
    chart.addEventListener('pointermove', point);
    chart.addEventListener('pointerdown', point);
    chart.addEventListener('pointerleave', () => (tooltip(chart).hidden = true));
  }
}
