import { cleanup } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderAt } from '../../testing/render.tsx';
import { IncomeExpenseChart, powerLabel, topPower } from './income-expense-chart.tsx';

const month = (income: Record<number, string>, expense: Record<number, string> = {}) =>
  Array.from({ length: 30 }, (_, i) => ({
    day: `2026-11-${String(i + 1).padStart(2, '0')}`,
    income: income[i + 1] ?? '0.00',
    expense: expense[i + 1] ?? '0.00',
  }));

afterEach(cleanup);

describe('the income vs. expense chart’s value axis', () => {
  it('labels 0 and each power of ten up to the one above the largest amount, in Indian units', () => {
    const days = month({ 3: '45000.50', 9: '10000.00' }, { 3: '120.00' });
    const { container } = renderAt('/', <IncomeExpenseChart days={days} />);
    const axis = container.querySelector('[data-axis="value"]');
    const ticks = [...(axis?.querySelectorAll('text') ?? [])];
    expect(ticks.map((t) => t.textContent)).toEqual(['0', '10', '100', '1K', '10K', '1L']);
    // The range: the top tick (1,00,000) is above the largest amount, the one below it is not.
    const values = ticks.map((t) => BigInt(t.getAttribute('data-tick')!));
    expect(values.at(-1)).toBe(100000n);
    expect(values.at(-2)! < 45000n).toBe(true);
    // The top tick is the top of the plot, 0 its baseline; a bar of 10,000 reaches the 10K line.
    const y = (label: string) => Number(ticks.find((t) => t.textContent === label)?.getAttribute('y'));
    expect(y('1L')).toBeCloseTo(0, 6);
    const bar = container.querySelector('[data-day="2026-11-09"] [data-kind="income"]');
    expect(Number(bar?.getAttribute('y'))).toBeCloseTo(y('10K'), 6);
    expect(y('0')).toBeCloseTo(Number(bar?.getAttribute('y')) + Number(bar?.getAttribute('height')), 6);
    // Still the day-of-month axis under the bars.
    expect(container.querySelector('[data-day="2026-11-09"] text')?.textContent).toBe('9');
  });

  it('finds the top power of ten from the decimal text, and names the large ones in lakh and crore', () => {
    expect(topPower(['0.00', '0.50'])).toBe(1);
    expect(topPower(['100.00'])).toBe(2);
    expect(topPower(['100.01'])).toBe(3);
    expect(topPower(['99999.99', '-250000.00'])).toBe(6);
    expect(topPower(['1000000000000.00'])).toBe(12);
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map(powerLabel)).toEqual([
      '10',
      '100',
      '1K',
      '10K',
      '1L',
      '10L',
      '1Cr',
      '10Cr',
      '100Cr',
      '1,000Cr',
      '10,000Cr',
    ]);
  });

  it('thins the ticks when powers of ten would crowd (a huge amount)', () => {
    const { container } = renderAt('/', <IncomeExpenseChart days={month({ 1: '1000000000000000.00' })} />);
    const labels = [...container.querySelectorAll('[data-axis="value"] text')].map((t) => t.textContent);
    expect(labels[0]).toBe('0');
    expect(labels.at(-1)).toBe('10,00,00,000Cr');
    expect(labels.length).toBeLessThan(16);
    expect(labels.length).toBeGreaterThan(4);
  });
});
