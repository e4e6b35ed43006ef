import { formatAmount } from '@bahi/ui';
import { makeStyles, Text, tokens } from '@fluentui/react-components';
import { Group } from '@visx/group';
import { Bar } from '@visx/shape';
import { useTooltip } from '@visx/tooltip';
import type { MouseEvent } from 'react';

const WIDTH = 900;
const HEIGHT = 260;
const MARGIN = { top: 10, right: 8, bottom: 24, left: 8 };

export interface DayTotals {
  day: string;
  income: string;
  expense: string;
}

const useStyles = makeStyles({
  wrap: { position: 'relative', width: '100%' },
  svg: { display: 'block', width: '100%', height: 'auto' },
  legend: { display: 'flex', gap: tokens.spacingHorizontalL, marginTop: tokens.spacingVerticalS },
  swatch: { display: 'inline-block', width: '12px', height: '12px', borderRadius: '2px', marginRight: '6px' },
});

/**
 * Income (green) against expense (red) per day, bars on a log scale so a small day stays
 * visible beside a big one; each pair labelled with the day of month.
 */
export function IncomeExpenseChart({ days }: { days: DayTotals[] }) {
  const styles = useStyles();
  const tip = useTooltip<DayTotals>();
  const innerW = WIDTH - MARGIN.left - MARGIN.right;
  const innerH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const max = Math.max(1, ...days.flatMap((d) => [Number(d.income), Number(d.expense)]));
  // A band per day with 20% padding; heights on log(1 + v), so zero stays at the baseline and
  // every positive value gets a visible bar. (Written out: @visx/scale's d3 weighs ~10 kB gzip.)
  const step = innerW / Math.max(1, days.length);
  const band = step * 0.8;
  const bandX = (i: number) => i * step + (step - band) / 2;
  const h = (v: string) => (innerH * Math.log1p(Math.max(0, Number(v) || 0))) / Math.log1p(max);
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
  return (
    <div className={styles.wrap}>
      <svg
        className={styles.svg}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label="Income vs. expense for each of the last 30 days"
      >
        <Group left={MARGIN.left} top={MARGIN.top}>
          <line x1={0} x2={innerW} y1={innerH} y2={innerH} stroke={tokens.colorNeutralStroke1} />
          {days.map((d, i) => {
            const x0 = bandX(i);
            const label = String(Number(d.day.slice(8, 10)));
            return (
              // biome-ignore lint/a11y/noInteractiveElementToNoninteractiveRole: a pointer-only tooltip; the figures are in the label
              <g
                key={d.day}
                role="img"
                aria-label={`${d.day}: income ${formatAmount(d.income)}, expense ${formatAmount(d.expense)}`}
                onMouseMove={show(d)}
                onMouseLeave={tip.hideTooltip}
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
            transform: (tip.tooltipLeft ?? 0) > 500 ? 'translateX(calc(-100% - 24px))' : undefined,
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
            <strong>{tip.tooltipData.day}</strong>
          </div>
          <div>Income: {formatAmount(tip.tooltipData.income)}</div>
          <div>Expense: {formatAmount(tip.tooltipData.expense)}</div>
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
    </div>
  );
}
