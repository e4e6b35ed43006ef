import { Tab, TabList } from '@fluentui/react-components';

import { ALL_CITIES, type CityTabsProps } from './city-tabs.tsx';

export default function CityTabsImpl(props: CityTabsProps) {
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
