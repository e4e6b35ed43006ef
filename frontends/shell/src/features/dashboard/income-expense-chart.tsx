import { formatAmount, formatCount } from '@bahi/ui';
import { makeStyles, Text, tokens } from '@fluentui/react-components';
import { Group } from '@visx/group';
import { Bar } from '@visx/shape';
import { useTooltip } from '@visx/tooltip';
import {
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';

const HEIGHT = 260;
/** A day label needs about this much room; closer bars label every n-th day. */
const LABEL_PX = 24;
const MARGIN = { top: 10, right: 8, bottom: 24, left: 8 };
/** Value-axis labels: 11 px text, about this wide per character, and the gap to the bars. */
const AXIS_CHAR_PX = 6.5;
const AXIS_GAP_PX = 6;
/** Value ticks closer than this are thinned (every n-th power of ten). */
const TICK_MIN_PX = 16;

/**
 * The power of ten at the top of the value axis: the smallest 10^k (k >= 1) at or above every
 * amount, from the decimal text (exact; no amount goes through a float here).
 */
export function topPower(values: string[]): number {
  let k = 1;
  for (const v of values) {
    const [whole = '0', fraction = ''] = v.replace(/^-/, '').split('.');
    const digits = whole.replace(/^0+/, '');
    if (!digits) continue; // below 1
    // 10^n exactly (a 1 and n zeros, no fraction) is its own top; anything more needs 10^len.
    const exact = /^10*$/.test(digits) && !/[1-9]/.test(fraction);
    k = Math.max(k, exact ? digits.length - 1 : digits.length);
  }
  return k;
}

/**
 * 10^k as the axis labels it, in the app's Indian grouping: 10, 100, 1K, 10K, 1L, 10L, 1Cr,
 * 10Cr, 100Cr, 1,000Cr, ...
 */
export function powerLabel(k: number): string {
  if (k < 3) return `1${'0'.repeat(k)}`;
  if (k < 5) return `1${'0'.repeat(k - 3)}K`;
  if (k < 7) return `1${'0'.repeat(k - 5)}L`;
  return `${formatCount(`1${'0'.repeat(k - 7)}`)}Cr`;
}

export interface DayTotals {
  day: string;
  income: string;
  expense: string;
}

const useStyles = makeStyles({
  wrap: { position: 'relative', width: '100%', margin: 0 },
  svg: { display: 'block', width: '100%', height: 'auto', overflow: 'visible' },
  bar: {
    outlineStyle: 'none',
    ':focus-visible > rect:first-child': { stroke: tokens.colorStrokeFocus2, strokeWidth: '2px' },
  },
  legend: { display: 'flex', gap: tokens.spacingHorizontalL, marginTop: tokens.spacingVerticalS },
  swatch: { display: 'inline-block', width: '12px', height: '12px', borderRadius: '2px', marginRight: '6px' },
});

/** '24 Nov 2026' from '2026-11-24'. */
const dayText = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });

/**
 * Income (green) against expense (red) per day, bars on a log scale so a small day stays
 * visible beside a big one; each pair labelled with the day of month (every n-th day where the
 * bars are narrow, on a phone). Hovering a day, or focusing it (Tab to the chart, then the
 * arrow keys, Home and End), shows its date, income and expense.
 */
export function IncomeExpenseChart({ days }: { days: DayTotals[] }) {
  const styles = useStyles();
  const tip = useTooltip<DayTotals>();
  const wrap = useRef<HTMLElement>(null);
  // Drawn at the width it has, so the labels' 11 px stay 11 px on a phone.
  const [WIDTH, setWidth] = useState(900);
  useLayoutEffect(() => {
    const el = wrap.current;
    if (!el) return;
    const measure = () => setWidth(Math.max(240, Math.round(el.clientWidth) || 900));
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(measure);
    observer?.observe(el);
    return () => observer?.disconnect();
  }, []);
  const [active, setActive] = useState(Math.max(0, days.length - 1));
  const innerH = HEIGHT - MARGIN.top - MARGIN.bottom;
  // The value axis runs from 0 to the power of ten above the largest amount, labelled at each
  // power of ten (0, 10, 100, 1K, ...; thinned when they would crowd).
  const top = topPower(days.flatMap((d) => [d.income, d.expense]));
  const every = Math.max(1, Math.ceil((TICK_MIN_PX * top) / innerH));
  const ticks = Array.from({ length: top + 1 }, (_, k) => k).filter((k) => (top - k) % every === 0 && k > 0);
  const labels = ticks.map(powerLabel);
  const left = MARGIN.left + AXIS_GAP_PX + AXIS_CHAR_PX * Math.max(1, ...labels.map((l) => l.length));
  const innerW = WIDTH - left - MARGIN.right;
  const logTop = Math.log1p(10 ** top);
  const tickY = (k: number) => innerH - (innerH * Math.log1p(10 ** k)) / logTop;
  // A band per day with 20% padding; heights on log(1 + v), so zero stays at the baseline and
  // every positive value gets a visible bar. (Written out: @visx/scale's d3 weighs ~10 kB gzip.)
  const step = innerW / Math.max(1, days.length);
  const band = step * 0.8;
  const bandX = (i: number) => i * step + (step - band) / 2;
  const h = (v: string) => (innerH * Math.log1p(Math.max(0, Number(v) || 0))) / logTop;
  const half = band / 2;
  const green = tokens.colorPaletteGreenBackground3;
  const red = tokens.colorPaletteRedBackground3;
  const show = (d: DayTotals) => (e: MouseEvent<SVGElement>) => {
    const svg = (e.currentTarget as SVGElement).ownerSVGElement;
    const box = svg?.getBoundingClientRect();
    tip.showTooltip({
      tooltipData: d,
      tooltipLeft: box ? e.clientX - box.left : 0,
      tooltipTop: box ? e.clientY - box.top : 0,
    });
  };
  // Keyboard: the tooltip sits above the focused day's bars.
  const focus = (d: DayTotals, i: number) => (e: FocusEvent<SVGGElement>) => {
    setActive(i);
    const svg = e.currentTarget.ownerSVGElement;
    const box = svg?.getBoundingClientRect();
    const bar = e.currentTarget.getBoundingClientRect();
    tip.showTooltip({
      tooltipData: d,
      tooltipLeft: box ? bar.left - box.left + bar.width / 2 : 0,
      tooltipTop: box ? Math.max(0, bar.top - box.top + 10) : 0,
    });
  };
  const move = (e: KeyboardEvent<SVGGElement>) => {
    const to =
      e.key === 'ArrowRight'
        ? active + 1
        : e.key === 'ArrowLeft'
          ? active - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? days.length - 1
              : null;
    if (to === null) return;
    e.preventDefault();
    const next = Math.min(days.length - 1, Math.max(0, to));
    setActive(next);
    e.currentTarget.parentElement?.querySelectorAll<SVGGElement>(':scope > [data-day]')[next]?.focus();
  };
  const labelEvery = Math.max(1, Math.ceil(LABEL_PX / Math.max(1, step)));
  return (
    <figure className={styles.wrap} ref={wrap} aria-label="Income vs. expense for each of the last 30 days">
      <svg className={styles.svg} viewBox={`0 0 ${WIDTH} ${HEIGHT}`}>
        <title>Income and expense per day; focus a day for its figures</title>
        <Group left={left} top={MARGIN.top}>
          <g data-axis="value">
            {[0, ...ticks].map((k) => (
              <g key={k}>
                {k > 0 ? (
                  <line
                    x1={0}
                    x2={innerW}
                    y1={tickY(k)}
                    y2={tickY(k)}
                    stroke={tokens.colorNeutralStroke2}
                    strokeDasharray="2 3"
                  />
                ) : null}
                <text
                  x={-AXIS_GAP_PX}
                  y={k > 0 ? tickY(k) : innerH}
                  dy="0.32em"
                  textAnchor="end"
                  fontSize={11}
                  fill={tokens.colorNeutralForeground3}
                  data-tick={k > 0 ? `1${'0'.repeat(k)}` : '0'}
                >
                  {k > 0 ? powerLabel(k) : '0'}
                </text>
              </g>
            ))}
          </g>
          <line x1={0} x2={innerW} y1={innerH} y2={innerH} stroke={tokens.colorNeutralStroke1} />
          {days.map((d, i) => {
            const x0 = bandX(i);
            const label = String(Number(d.day.slice(8, 10)));
            const labelled = i % labelEvery === (days.length - 1) % labelEvery;
            return (
              // One tab stop for the chart; the arrow keys move between days (a roving tab index).
              // biome-ignore lint/a11y/useSemanticElements: an SVG bar group has no HTML element to be
              <g
                key={d.day}
                role="button"
                tabIndex={i === active ? 0 : -1}
                className={styles.bar}
                aria-label={`${dayText(d.day)}: income ${formatAmount(d.income)} INR, expense ${formatAmount(d.expense)} INR`}
                onMouseMove={show(d)}
                onMouseLeave={tip.hideTooltip}
                onFocus={focus(d, i)}
                onBlur={tip.hideTooltip}
                onKeyDown={move}
                data-day={d.day}
              >
                <rect x={x0} y={0} width={band} height={innerH} fill="transparent" />
                <Bar
                  x={x0}
                  y={innerH - h(d.income)}
                  width={half}
                  height={h(d.income)}
                  fill={green}
                  data-kind="income"
                />
                <Bar
                  x={x0 + half}
                  y={innerH - h(d.expense)}
                  width={half}
                  height={h(d.expense)}
                  fill={red}
                  data-kind="expense"
                />
                <text
                  visibility={labelled ? 'visible' : 'hidden'}
                  x={x0 + half}
                  y={innerH + 16}
                  textAnchor="middle"
                  fontSize={11}
                  fill={tokens.colorNeutralForeground3}
                >
                  {label}
                </text>
              </g>
            );
          })}
        </Group>
      </svg>
      {tip.tooltipOpen && tip.tooltipData ? (
        <div
          role="tooltip"
          style={{
            position: 'absolute',
            left: Math.min((tip.tooltipLeft ?? 0) + 12, 10_000),
            top: (tip.tooltipTop ?? 0) + 12,
            transform: (tip.tooltipLeft ?? 0) > WIDTH / 2 ? 'translateX(calc(-100% - 24px))' : undefined,
            zIndex: 1,
            whiteSpace: 'nowrap',
            background: tokens.colorNeutralBackground1,
            color: tokens.colorNeutralForeground1,
            border: `1px solid ${tokens.colorNeutralStroke1}`,
            borderRadius: tokens.borderRadiusMedium,
            padding: '6px 10px',
            fontSize: tokens.fontSizeBase200,
            pointerEvents: 'none',
            boxShadow: tokens.shadow8,
          }}
        >
          <div>
            <strong>{dayText(tip.tooltipData.day)}</strong>
          </div>
          <div>Income: {formatAmount(tip.tooltipData.income)} INR</div>
          <div>Expense: {formatAmount(tip.tooltipData.expense)} INR</div>
        </div>
      ) : null}
      <div className={styles.legend}>
        <Text size={200}>
          <span className={styles.swatch} style={{ background: green }} />
          Income
        </Text>
        <Text size={200}>
          <span className={styles.swatch} style={{ background: red }} />
          Expense
        </Text>
        <Text size={200}>Bar heights on a logarithmic scale</Text>
      </div>
    </figure>
  );
}
