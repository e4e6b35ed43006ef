import { lazyNamed } from '@bahi/ui';
import {
  cityColumn,
  currentColumn,
  openingColumn,
  PartyListPage,
  phoneColumn,
} from '../../shared/party-list-page.tsx';

// Loaded with the dialog's first opening (forms do not weigh on the list's first screen).
const PaymentDialog = lazyNamed(() => import('../../shared/payment-dialog.tsx'), 'PaymentDialog');

/** Funders (spec section 2): Name, City, Phone, Opening and Current Balance; Pay, edit, delete. */
export function FundersPage() {
  return (
    <PartyListPage
      kind="Funder"
      title="Funders"
      withCity
      columns={[cityColumn, phoneColumn, openingColumn('Funder'), currentColumn('Funder')]}
      action={{
        label: 'Pay',
        dialog: (party, close) => <PaymentDialog kind="Funder" party={party} onClose={close} />,
      }}
    />
  );
}
