import { type Column, lazyNamed, RouterLink } from '@bahi/ui';
import {
  Amount,
  AsOfInput,
  CityFilter,
  currentBalance,
  type Party,
  type PartyKind,
  partiesQuery,
  partyCurrency,
  showDay,
  useQuery,
} from '@bahi/ui/screen';
import { Button, makeStyles, Text, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { type ListState, MasterPage } from './master-page.tsx';

// Loaded with the dialog's first opening (forms do not weigh on the list's first screen).
const PartyFormDialog = lazyNamed(() => import('./party-form-dialog.tsx'), 'PartyFormDialog');
const PaymentDialog = lazyNamed(() => import('./payment-dialog.tsx'), 'PaymentDialog');

const useStyles = makeStyles({
  caption: { color: tokens.colorNeutralForeground3 },
});

export { Amount } from '@bahi/ui/screen';

const openingColumn = (kind: PartyKind): Column<Party> => ({
  key: 'opening',
  header: 'Opening Balance',
  card: 'figure',
  render: (p) => <Amount value={p.opening_balance} currency={partyCurrency(p, kind)} />,
});

export const currentColumn = (kind: PartyKind): Column<Party> => ({
  key: 'current',
  header: 'Current Balance',
  card: 'figure',
  render: (p) => <Amount value={currentBalance(p)} currency={partyCurrency(p, kind)} />,
});

const cityColumn: Column<Party> = { key: 'city', header: 'City', render: (p) => p.city?.name ?? '' };
export const phoneColumn: Column<Party> = { key: 'phone', header: 'Phone', render: (p) => p.phone ?? '' };

/**
 * A master list of one kind of party (spec section 2): the name opens its ledger; search by
 * name or phone, the city filter where the kind has a city, and balances as of a date.
 */
export function PartyListPage(props: {
  kind: PartyKind;
  title: string;
  withCity: boolean;
  columns: Column<Party>[];
  /** The money action: its button text and its dialog. */
  action: { label: string; dialog(party: Party, close: () => void): ReactNode };
}) {
  const { kind } = props;
  const styles = useStyles();
  const usePartyRows = (list: ListState) =>
    useQuery(
      partiesQuery(kind, {
        page: list.page,
        limit: list.pageSize,
        search: list.filters.search,
        city_id: props.withCity ? list.filters.city_id : '',
        asOf: list.filters.asOf,
      }),
    );
  return (
    <MasterPage<Party>
      kind={kind}
      title={props.title}
      path={props.title.toLowerCase()}
      searchLabel="Search by name or phone"
      fetchFallback={`Failed to fetch ${props.title.toLowerCase()}.`}
      emptyText={`No ${props.title.toLowerCase()} found.`}
      deleteMessage={(p) => `Are you sure you want to delete "${p.name}"?`}
      useRows={usePartyRows}
      filters={(list) => (
        <>
          {props.withCity ? (
            <CityFilter value={list.filters.city_id} onChange={(v) => list.setFilter('city_id', v)} />
          ) : null}
          <AsOfInput value={list.filters.asOf} onChange={(v) => list.setFilter('asOf', v)} />
        </>
      )}
      caption={(list) =>
        list.filters.asOf ? (
          <Text size={200} className={styles.caption}>
            Balances as the books stood at the end of {showDay(list.filters.asOf)}.
          </Text>
        ) : null
      }
      columns={[
        {
          key: 'name',
          header: 'Name',
          render: (p) => (
            <RouterLink to={`/reports/ledger/${kind}/${p.id}`} state={{ name: p.name }}>
              {p.name}
            </RouterLink>
          ),
        },
        ...props.columns,
      ]}
      rowAction={(p, open) => (
        <Button size="small" aria-label={`${props.action.label} ${p.name}`} onClick={open}>
          {props.action.label}
        </Button>
      )}
      actionDialog={props.action.dialog}
      form={(party, close, list) => (
        <PartyFormDialog
          kind={kind}
          party={party}
          defaultCityId={props.withCity ? list.filters.city_id : undefined}
          onClose={close}
        />
      )}
    />
  );
}

/**
 * Funders, Agents and Collectors (spec section 2): a party of a city, with Name, City, Phone,
 * what the kind adds (a collector's salary), Opening and Current Balance, and its money action.
 */
export function CityPartyPage(props: {
  kind: 'Funder' | 'Agent' | 'Collector';
  title: string;
  columns?: Column<Party>[];
  action: { label: string; dialog(party: Party, close: () => void): ReactNode };
}) {
  const { kind } = props;
  return (
    <PartyListPage
      kind={kind}
      title={props.title}
      withCity
      columns={[cityColumn, phoneColumn, ...(props.columns ?? []), openingColumn(kind), currentColumn(kind)]}
      action={props.action}
    />
  );
}

/** Pay (a funder) or Receive (from an agent): the payment dialog of the row's party. */
export const paymentAction = (kind: 'Funder' | 'Agent', label: string) => ({
  label,
  dialog: (party: Party, close: () => void) => <PaymentDialog kind={kind} party={party} onClose={close} />,
});
