import { purchaseInput } from '@bahi/contracts';
import { formatAmount } from '@bahi/ui';
import { DateField, DecimalField, EntityField, RadioField, SelectField, useWatch } from '@bahi/ui/form';
import { isPositiveDecimal, multiplyDecimal, today, useCities } from '@bahi/ui/screen';
import { Text } from '@fluentui/react-components';
import { useEffect, useRef } from 'react';
import { AdjustsField } from '../../shared/adjusts-field.tsx';
import { CustomFieldInputs } from '../../shared/custom-field-inputs.tsx';
import { ProductField } from '../../shared/product-field.tsx';
import { blankRecord, RecordFormDialog, recordDefaults, useRecordForm } from '../../shared/record-form.tsx';
import type { RecordFormProps } from '../../shared/record-list-page.tsx';
import type { Purchase } from './api.ts';

/**
 * New Purchase / Edit Purchase (spec sections 2, 4, 5): Godown or Direct (not changeable on
 * edit); funder, collector and agent of the chosen city, cleared when the city changes; the paid
 * amount through a collector; commission for Direct; the custom fields that apply to purchases.
 */
export function PurchaseFormDialog(props: RecordFormProps<Purchase>) {
  const { record: p } = props;
  const t = p ?? props.template ?? null;
  const cities = useCities();
  const record = useRecordForm({
    kind: 'Purchase',
    schema: purchaseInput,
    id: p?.id ?? null,
    defaults: {
      type: t?.type ?? 'Godown',
      purchase_date: p?.purchase_date ?? today(), // a duplicate is a new entry of today
      city_id: t?.city_id ?? props.cityId,
      funder_id: t?.funder_id ?? '',
      collector_id: t?.collector_id ?? '',
      agent_id: t?.agent_id ?? '',
      paid_amount: t?.paid_amount ?? '0',
      commission: t?.commission ?? '0',
      ...recordDefaults(p, t, props.adjusts),
    },
    // Save and New keeps the type, date, city and godown for the next entry (issue #14).
    next: (v, form) =>
      form.startNext(
        {
          type: v.type,
          purchase_date: form.getValues('purchase_date'),
          city_id: v.city_id,
          funder_id: '',
          product_id: '',
          godown_id: v.godown_id ?? '',
          collector_id: '',
          agent_id: '',
          paid_amount: '0',
          commission: '0',
          ...blankRecord(form.getValues('custom_fields')),
        },
        'funder_id',
      ),
    onClose: props.onClose,
  });
  const { form } = record;
  const [type, cityId, rate, quantity] = useWatch({
    control: form.control,
    name: ['type', 'city_id', 'rate', 'quantity'],
  });
  // Changing the city clears the parties of the old one (spec section 4).
  const lastCity = useRef(cityId);
  useEffect(() => {
    if (lastCity.current === cityId) return;
    lastCity.current = cityId;
    for (const field of ['funder_id', 'collector_id', 'agent_id'] as const) form.setValue(field, '');
  }, [cityId, form]);
  const currency = cities.data?.find((c) => c.id === cityId)?.currency_name ?? '';
  const total =
    isPositiveDecimal(String(rate ?? '')) && isPositiveDecimal(String(quantity ?? ''))
      ? multiplyDecimal(String(rate), String(quantity), 2)
      : null;
  const direct = type === 'Direct';
  return (
    <RecordFormDialog record={record}>
      <RadioField
        name="type"
        label="Type"
        disabled={!!p}
        choices={[
          { value: 'Godown', label: 'Godown' },
          { value: 'Direct', label: 'Direct' },
        ]}
      />
      <DateField name="purchase_date" label="Purchase Date" required />
      <AdjustsField reference={p ? p.adjusts : props.adjusts} />
      <SelectField
        name="city_id"
        label="City"
        required
        choices={(cities.data ?? []).map((c) => ({ value: c.id, label: `${c.name} (${c.currency_name})` }))}
      />
      <EntityField
        key={`funder-${cityId}`}
        kind="Funder"
        name="funder_id"
        label="Funder"
        required
        cityId={cityId}
        initialLabel={t?.funder?.name ?? undefined}
      />
      <ProductField />
      {direct ? (
        <EntityField
          key={`agent-${cityId}`}
          kind="Agent"
          name="agent_id"
          label="Agent"
          required
          cityId={cityId}
          initialLabel={t?.agent?.name ?? undefined}
        />
      ) : (
        <EntityField
          kind="Godown"
          name="godown_id"
          label="Destination Godown"
          required
          initialLabel={t?.godown?.name ?? undefined}
        />
      )}
      <DecimalField name="rate" label="Rate" required scale={4} suffix={currency} />
      <DecimalField name="quantity" label="Quantity" required scale={4} />
      <Text size={200}>Total: {total ? `${formatAmount(total)} ${currency}` : '-'}</Text>
      <DecimalField name="paid_amount" label="Paid Amount" scale={2} suffix={currency} />
      <EntityField
        key={`collector-${cityId}`}
        kind="Collector"
        name="collector_id"
        label="Collector (who paid)"
        cityId={cityId}
        initialLabel={t?.collector?.name ?? undefined}
      />
      {direct ? <DecimalField name="commission" label="Commission" scale={2} suffix={currency} /> : null}
      <CustomFieldInputs entity="Purchase" />
    </RecordFormDialog>
  );
}
