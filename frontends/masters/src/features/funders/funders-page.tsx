import { CityPartyPage, paymentAction } from '../../shared/party-list-page.tsx';

/** Funders (spec section 2): Name, City, Phone, Opening and Current Balance; Pay, edit, delete. */
export function FundersPage() {
  return <CityPartyPage kind="Funder" title="Funders" action={paymentAction('Funder', 'Pay')} />;
}
