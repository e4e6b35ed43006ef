import { act, cleanup, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatAmount, formatQuantity, relativeTime } from './format.ts';
import { useListState } from './list-state.ts';
import { SEARCH_DEBOUNCE_MS, useDebouncedValue } from './use-debounced-value.ts';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('useListState', () => {
  it('keeps page, size and filters in the URL, and a filter change goes back to page 1', () => {
    let search = '';
    function Spy() {
      search = useLocation().search;
      return null;
    }
    const wrapper = ({ children }: { children: ReactNode }) => (
      <MemoryRouter initialEntries={['/settings/activity-log?page=3&actionType=DELETE']}>
        <Routes>
          <Route
            path="*"
            element={
              <>
                {children}
                <Spy />
              </>
            }
          />
        </Routes>
      </MemoryRouter>
    );
    const { result } = renderHook(
      () => useListState({ pageSize: 25, filters: ['actionType', 'userId'] as const }),
      {
        wrapper,
      },
    );
    expect(result.current.page).toBe(3);
    expect(result.current.pageSize).toBe(25);
    expect(result.current.filters).toEqual({ actionType: 'DELETE', userId: '' });
    act(() => result.current.setFilter('userId', 'u-1'));
    expect(result.current.page).toBe(1);
    expect(new URLSearchParams(search).get('userId')).toBe('u-1');
    expect(new URLSearchParams(search).get('page')).toBeNull();
    act(() => result.current.setPage(2));
    act(() => result.current.setPageSize(50));
    expect(result.current.page).toBe(1);
    expect(result.current.pageSize).toBe(50);
    expect(search).toContain('limit=50');
  });
});

describe('useDebouncedValue', () => {
  it('passes a value on only after 500 ms without change', () => {
    vi.useFakeTimers();
    const { result, rerender } = renderHook(({ v }) => useDebouncedValue(v), { initialProps: { v: 'a' } });
    rerender({ v: 'ab' });
    act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1));
    rerender({ v: 'abc' });
    act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1));
    expect(result.current).toBe('a');
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe('abc');
    expect(SEARCH_DEBOUNCE_MS).toBe(500);
  });
});

describe('formatting', () => {
  it('amounts with 2 decimals, quantities and rates with 4, relative time in whole units', () => {
    expect(formatAmount('1234.5')).toBe('1,234.50');
    expect(formatAmount(null)).toBe('0.00');
    expect(formatQuantity(2)).toBe('2.0000');
    // Decimal text prints exactly, beyond what a double holds, grouped the Indian way.
    expect(formatAmount('12345678901234567.89')).toBe('12,34,56,78,90,12,34,567.89');
    expect(formatAmount('-1234567.005')).toBe('-12,34,567.01');
    expect(formatAmount('-0.001')).toBe('0.00');
    expect(formatAmount('999.995')).toBe('1,000.00');
    expect(formatQuantity('0.5')).toBe('0.5000');
    const now = new Date('2026-11-21T12:00:00Z');
    expect(relativeTime('2026-11-21T11:59:30Z', now)).toBe('30 seconds ago');
    expect(relativeTime('2026-11-21T11:59:00Z', now)).toBe('1 minute ago');
    expect(relativeTime('2026-11-18T12:00:00Z', now)).toBe('3 days ago');
    expect(relativeTime('2026-09-21T12:00:00Z', now)).toBe('2 months ago');
    expect(relativeTime('2024-11-01T12:00:00Z', now)).toBe('2 years ago');
  });
});
