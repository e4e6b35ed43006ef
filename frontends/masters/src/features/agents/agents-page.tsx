import {
  cityColumn,
  currentColumn,
  openingColumn,
  PartyListPage,
  phoneColumn,
} from '../../shared/party-list-page.tsx';
import { PaymentDialog } from '../../shared/payment-dialog.tsx';

/** Agents (spec section 2): as Funders, with Receive instead of Pay. */
export function AgentsPage() {
  return (
    <PartyListPage
      kind="Agent"
      title="Agents"
      withCity
      columns={[cityColumn, phoneColumn, openingColumn('Agent'), currentColumn('Agent')]}
      action={{
        label: 'Receive',
        dialog: (party, close) => <PaymentDialog kind="Agent" party={party} onClose={close} />,
      }}
    />
  );
}
