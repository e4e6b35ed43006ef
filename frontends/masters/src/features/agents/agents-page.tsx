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
