import { lazyNamed } from '@bahi/ui';
import { Amount, CityPartyPage } from '../../shared/party-list-page.tsx';

// Loaded with the dialog's first opening (forms do not weigh on the list's first screen).
const SalaryDialog = lazyNamed(() => import('./salary-dialog.tsx'), 'SalaryDialog');

/** Collectors (spec section 2): as Funders plus Salary, with Pay Salary. */
export function CollectorsPage() {
  return (
    <CityPartyPage
      kind="Collector"
      title="Collectors"
      columns={[
        {
          key: 'salary',
          header: 'Salary',
          render: (p) => <Amount value={p.salary_per_month} currency={p.city?.currency_name ?? ''} />,
        },
      ]}
      action={{
        label: 'Pay Salary',
        dialog: (party, close) => <SalaryDialog collector={party} onClose={close} />,
      }}
    />
  );
}
