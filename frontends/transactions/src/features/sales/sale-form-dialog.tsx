import { saleInput } from '@bahi/contracts';
import { formatAmount, formatRate } from '@bahi/ui';
import { DateField, DecimalField, EntityField, useWatch } from '@bahi/ui/form';
import { type Party, today, useCities, useQuery } from '@bahi/ui/screen';
import { makeStyles, Text, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { AdjustsField } from '../../shared/adjusts-field.tsx';
import { CustomFieldInputs } from '../../shared/custom-field-inputs.tsx';
import { ProductField } from '../../shared/product-field.tsx';
import { blankRecord, RecordFormDialog, recordDefaults, useRecordForm } from '../../shared/record-form.tsx';
import type { RecordFormProps } from '../../shared/record-list-page.tsx';
import { averageRateQuery, type Sale } from './api.ts';
import { profitPreview } from './profit.ts';

const useStyles = makeStyles({
  preview: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXXS,
    padding: tokens.spacingHorizontalS,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
  },
  loss: { color: tokens.colorPaletteRedForeground1 },
  gain: { color: tokens.colorPaletteGreenForeground1 },
});

/** 'Nadia (Mumbai)': agents of every city are offered, so each says its city. */
const agentLabel = (agent: Party) => `${agent.name} (${agent.city?.name ?? 'no city'})`;

/**
 * New Sale / Edit Sale (spec sections 2 and 5): an agent of any city, product, from
 * godown, rate, quantity, clearing charge and the custom fields of sales; the average purchase
 * rate of the product in the godown and the profit preview.
 */
export function SaleFormDialog(props: RecordFormProps<Sale>) {
  const { record: s } = props;
  const t = s ?? props.template ?? null;
  const styles = useStyles();
  const cities = useCities();
  const record = useRecordForm({
    kind: 'Sale',
    schema: saleInput,
    id: s?.id ?? null,
    defaults: {
      sale_date: s?.sale_date ?? today(),
      agent_id: t?.agent_id ?? '',
      clearing_charge: t?.clearing_charge ?? '0',
      ...recordDefaults(s, t, props.adjusts),
    },
    // Save and New keeps the date and the godown for the next entry (issue #14).
    next: (v, form) =>
      form.startNext(
        {
          sale_date: form.getValues('sale_date'),
          agent_id: '',
          product_id: v.product_id,
          godown_id: v.godown_id,
          clearing_charge: '0',
          ...blankRecord(form.getValues('custom_fields')),
        },
        'agent_id',
      ),
    onClose: props.onClose,
  });
  const { form } = record;
  const [productId, godownId, rate, quantity] = useWatch({
    control: form.control,
    name: ['product_id', 'godown_id', 'rate', 'quantity'],
  });
  const average = useQuery(averageRateQuery(String(productId ?? ''), String(godownId ?? '')));
  // A sale is in its agent's city (spec section 3: a sale has no city of its own). The picker
  // finds agents of every city, each shown with its city, so an agent of another city than the
  // tab in view is found, never silently filtered out (issue #25); the tab's city until chosen.
  const [cityId, setCityId] = useState(props.cityId);
  const city = cities.data?.find((c) => c.id === cityId);
  const profit = average.data
    ? profitPreview(String(rate ?? ''), String(quantity ?? ''), average.data.average_rate, city?.rate ?? '')
    : null;
  return (
    <RecordFormDialog record={record}>
      <DateField name="sale_date" label="Sale Date" required />
      <AdjustsField reference={s ? s.adjusts : props.adjusts} />
      <EntityField
        kind="Agent"
        name="agent_id"
        label="Agent"
        required
        labelFor={agentLabel}
        onPicked={(agent) => agent?.city_id && setCityId(agent.city_id)}
        hint={city ? `A sale in ${city.name} (${city.currency_name})` : undefined}
        initialLabel={t?.agent.name ?? undefined}
      />
      <ProductField />
      <EntityField
        kind="Godown"
        name="godown_id"
        label="From Godown"
        required
        initialLabel={t?.godown.name ?? undefined}
      />
      <DecimalField name="rate" label="Sale Rate" required scale={4} suffix={city?.currency_name ?? ''} />
      <DecimalField name="quantity" label="Quantity" required scale={4} />
      <DecimalField name="clearing_charge" label="Clearing Charge" scale={2} suffix="INR" />
      {average.data ? (
        <div className={styles.preview} aria-live="polite">
          <Text size={200}>
            Average purchase rate: {formatRate(average.data.average_rate)} INR ({average.data.quantity} in
            stock)
          </Text>
          {profit ? (
            <Text size={200} weight="semibold" className={profit.startsWith('-') ? styles.loss : styles.gain}>
              Estimated profit: {formatAmount(profit)} INR
            </Text>
          ) : null}
        </div>
      ) : null}
      <CustomFieldInputs entity="Sale" />
    </RecordFormDialog>
  );
}
