import { CityPartyPage, paymentAction } from '../../shared/party-list-page.tsx';

/** Agents (spec section 2): as Funders, with Receive instead of Pay. */
export function AgentsPage() {
  return <CityPartyPage kind="Agent" title="Agents" action={paymentAction('Agent', 'Receive')} />;
}
