import {
  cityColumn,
  currentColumn,
  openingColumn,
  PartyListPage,
  phoneColumn,
} from '../../shared/party-list-page.tsx';
import { PaymentDialog } from '../../shared/payment-dialog.tsx';

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
