import { lazy, Suspense } from 'react';

export interface CityOption {
  id: string;
  name: string;
}

export const ALL_CITIES = '';

export interface CityTabsProps {
  cities: CityOption[];
  value: string;
  onChange(cityId: string): void;
  includeAll?: boolean;
}

// Fluent's tab list loads with the first screen that has city tabs.
const Impl = lazy(() => import('./city-tabs-impl.tsx'));

/** One tab per city (and 'All Cities' first where a screen offers it); the value is the city id. */
export function CityTabs(props: CityTabsProps) {
  return (
    <Suspense fallback={null}>
      <Impl {...props} />
    </Suspense>
  );
}
