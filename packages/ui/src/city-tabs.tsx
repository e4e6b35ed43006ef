import { Tab, TabList } from '@fluentui/react-components';

export interface CityOption {
  id: string;
  name: string;
}

export const ALL_CITIES = '';

/** One tab per city (and 'All Cities' first where a screen offers it); the value is the city id. */
export function CityTabs(props: {
  cities: CityOption[];
  value: string;
  onChange(cityId: string): void;
  includeAll?: boolean;
}) {
  return (
    <TabList
      selectedValue={props.value}
      onTabSelect={(_, d) => props.onChange(String(d.value))}
      aria-label="Cities"
      style={{ overflowX: 'auto', flexWrap: 'nowrap' }}
    >
      {props.includeAll ? <Tab value={ALL_CITIES}>All Cities</Tab> : null}
      {props.cities.map((c) => (
        <Tab key={c.id} value={c.id}>
          {c.name}
        </Tab>
      ))}
    </TabList>
  );
}
