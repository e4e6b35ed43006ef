import { CityTabs, ErrorAlert, errorText, useSearchParams } from '@bahi/ui';
import { DateFilter, useCities } from '@bahi/ui/screen';
import { useCallback } from 'react';

const ALL = 'all';

/**
 * A report's city tab, in the URL: the first city once cities load (spec section 2). With
 * `includeAll`, 'all' in the URL is All Cities (no city); `onChange` and `clears` (a filter of
 * the old city, the cashbook's entity) go with every change of tab.
 */
export function useReportCity(options: { includeAll?: boolean; clears?: string; onChange?(): void } = {}) {
  const { includeAll = false, clears, onChange } = options;
  const [params, setParams] = useSearchParams();
  const cities = useCities();
  const tab = params.get('tab');
  const cityId = includeAll && tab === ALL ? '' : (tab ?? cities.data?.[0]?.id ?? '');
  const setCity = useCallback(
    (id: string) => {
      onChange?.();
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.set('tab', includeAll ? id || ALL : id);
          if (clears) next.delete(clears);
          return next;
        },
        { replace: true },
      );
    },
    [setParams, includeAll, clears, onChange],
  );
  return { cities, cityId, setCity, includeAll };
}

/** The city tabs of `useReportCity`, or why the cities could not be shown. */
export function ReportCityTabs(props: { city: ReturnType<typeof useReportCity> }) {
  const { cities, cityId, setCity, includeAll } = props.city;
  return cities.isError ? (
    <ErrorAlert text={errorText(cities.error, 'Failed to load cities list.')} />
  ) : (
    <CityTabs cities={cities.data ?? []} value={cityId} onChange={setCity} includeAll={includeAll} />
  );
}

type DateRange = 'startDate' | 'endDate';

/** Start Date and End Date of a report's applied filters (useAppliedFilters): Enter in either applies. */
export function DateRangeFilters(props: {
  filters: {
    draft: Record<DateRange, string>;
    set(name: DateRange, value: string): void;
    enter(name: DateRange): (value: string | null) => void;
  };
}) {
  const { filters } = props;
  return (
    <>
      <DateFilter
        label="Start Date"
        value={filters.draft.startDate}
        onChange={(v) => filters.set('startDate', v)}
        onEnter={filters.enter('startDate')}
      />
      <DateFilter
        label="End Date"
        value={filters.draft.endDate}
        onChange={(v) => filters.set('endDate', v)}
        onEnter={filters.enter('endDate')}
      />
    </>
  );
}
