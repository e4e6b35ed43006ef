import { formatRate, lazyNamed } from '@bahi/ui';
import type { City } from '@bahi/ui/screen';
import { MasterPage } from '../../shared/master-page.tsx';
import { useCitiesPage } from './api.ts';

// Loaded with the dialog's first opening (forms do not weigh on the list's first screen).
const CityFormDialog = lazyNamed(() => import('./city-form-dialog.tsx'), 'CityFormDialog');

/** Cities (spec section 2): City Name, Currency Name, Rate; New City, edit, delete. */
export function CitiesPage() {
  return (
    <MasterPage<City>
      kind="City"
      title="Cities"
      path="cities"
      searchLabel="Search by name"
      fetchFallback="Failed to fetch items."
      emptyText="No cities found."
      deleteMessage={(c) =>
        `Are you sure you want to delete "${c.name}"? Related funders and agents could be affected.`
      }
      useRows={useCitiesPage}
      columns={[
        { key: 'name', header: 'City Name', render: (c) => c.name },
        { key: 'currency', header: 'Currency Name', render: (c) => c.currency_name },
        { key: 'rate', header: 'Rate', render: (c) => formatRate(c.rate) },
      ]}
      form={(city, close) => <CityFormDialog city={city} onClose={close} />}
    />
  );
}
