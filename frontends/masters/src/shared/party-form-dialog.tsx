import { agentInput, collectorInput, funderInput, godownInput } from '@bahi/contracts';
import { FormDialog, useSnackbar } from '@bahi/ui';
import { DateField, DecimalField, FormProvider, SelectField, TextField, useSchemaForm } from '@bahi/ui/form';
import { isoDay, PARTY_PATH, type Party, type PartyKind, useCities } from '@bahi/ui/screen';
import { useMasterMutations } from './master-api.ts';

const SCHEMA = { Funder: funderInput, Agent: agentInput, Collector: collectorInput, Godown: godownInput };

/** New / edit of a funder, agent, collector or godown (spec section 3 fields, section 5 required marks). */
export function PartyFormDialog(props: {
  kind: PartyKind;
  /** The party being edited; null for a new one. */
  party: Party | null;
  /** A new party's city: the list's city filter. */
  defaultCityId?: string;
  onClose(): void;
}) {
  const { kind, party } = props;
  const notify = useSnackbar();
  const cities = useCities();
  const { save } = useMasterMutations(PARTY_PATH[kind]);
  const form = useSchemaForm(SCHEMA[kind], {
    name: party?.name ?? '',
    ...(kind === 'Godown' ? {} : { city_id: party?.city_id ?? props.defaultCityId ?? '' }),
    joining_date: party?.joining_date ?? '',
    phone: party?.phone ?? '',
    address: party?.address ?? '',
    narration: party?.narration ?? '',
    opening_balance: party?.opening_balance ?? '0',
    ...(kind === 'Collector' ? { salary_per_month: party?.salary_per_month ?? '0' } : {}),
  });
  const submit = form.submit(async (values) => {
    const body = { ...values, joining_date: values.joining_date ? isoDay(values.joining_date) : null };
    await save.mutateAsync({ id: party?.id ?? null, body });
    notify(`${kind} ${party ? 'updated' : 'created'} successfully!`);
    props.onClose();
  });
  return (
    <FormProvider {...form}>
      <FormDialog
        open
        title={party ? `Edit ${kind}` : `New ${kind}`}
        busy={form.formState.isSubmitting}
        error={form.alert}
        onClose={props.onClose}
        onSubmit={() => void submit()}
      >
        <TextField name="name" label="Name" required />
        {kind === 'Godown' ? null : (
          <SelectField
            name="city_id"
            label="City"
            required
            placeholder="Choose a city"
            hint={cities.isError ? 'Failed to load cities list.' : undefined}
            choices={(cities.data ?? []).map((c) => ({
              value: c.id,
              label: `${c.name} (${c.currency_name})`,
            }))}
          />
        )}
        <TextField name="phone" label="Phone" type="tel" />
        <DateField name="joining_date" label="Joining Date" />
        <DecimalField name="opening_balance" label="Opening Balance" scale={2} allowNegative />
        {kind === 'Collector' ? (
          <DecimalField name="salary_per_month" label="Salary per Month" scale={2} />
        ) : null}
        <TextField name="address" label="Address" multiline />
        <TextField name="narration" label="Narration" multiline />
      </FormDialog>
    </FormProvider>
  );
}
