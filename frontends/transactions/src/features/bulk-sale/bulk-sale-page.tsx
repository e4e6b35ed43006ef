import { api, ErrorAlert, handleFormKeyDown, Page, RoleGate, useSnackbar } from '@bahi/ui';
import {
  DateField,
  DecimalField,
  EntityField,
  FormProvider,
  useFieldArray,
  useSchemaForm,
} from '@bahi/ui/form';
import { isoDay, today } from '@bahi/ui/screen';
import { Button, makeStyles, Spinner, Text, Tooltip, tokens } from '@fluentui/react-components';
import { AddRegular, DeleteRegular } from '@fluentui/react-icons';
import { type KeyboardEvent, useRef } from 'react';
import { z } from 'zod';
import { ProductField } from '../../shared/product-field.tsx';
import { useTransactionWrite } from '../../shared/transaction-api.ts';
import { bulkPayload, EMPTY_ROW } from './bulk-sale.ts';

const useStyles = makeStyles({
  common: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(200px, 1fr))',
    gap: tokens.spacingHorizontalM,
  },
  grid: { overflowX: 'auto', border: 'none', margin: 0, padding: 0, minWidth: 0 },
  row: {
    display: 'grid',
    gridTemplateColumns: '32px minmax(200px, 2fr) repeat(3, minmax(120px, 1fr)) 40px',
    gap: tokens.spacingHorizontalS,
    alignItems: 'end',
    minWidth: '760px',
    paddingBottom: tokens.spacingVerticalS,
  },
  number: { paddingBottom: tokens.spacingVerticalS, color: tokens.colorNeutralForeground3 },
  footer: { display: 'flex', gap: tokens.spacingHorizontalM, flexWrap: 'wrap', alignItems: 'center' },
});

/** The form as typed: text everywhere; what is sent is checked and filtered on submit. */
const bulkForm = z.object({
  sale_date: z.string().min(1, 'Sale date is required'),
  godown_id: z.string(),
  product_id: z.string(),
  rows: z.array(
    z.object({ agent_id: z.string(), quantity: z.string(), rate: z.string(), clearing_charge: z.string() }),
  ),
});
const FIELDS = ['agent_id', 'quantity', 'rate', 'clearing_charge'] as const;

/**
 * Bulk Sale (spec sections 2 and 5): common details and a grid keyed like a spreadsheet - Enter
 * moves across, Enter on the last cell adds a row; the last row cannot be deleted; only valid
 * rows are sent, all or nothing on the server.
 */
export function BulkSalePage() {
  const styles = useStyles();
  const notify = useSnackbar();
  const write = useTransactionWrite((body: unknown) => api.post('/transactions/sales/bulk', body));
  const form = useSchemaForm(bulkForm, {
    sale_date: today(),
    godown_id: '',
    product_id: '',
    rows: [{ ...EMPTY_ROW }],
  });
  const rows = useFieldArray({ control: form.control, name: 'rows' });
  const gridRef = useRef<HTMLFieldSetElement>(null);
  const aliases = useRef<Record<string, string>>({});
  const submit = form.submit(
    async (v) => {
      const payload = bulkPayload({ ...v, sale_date: isoDay(v.sale_date) }, v.rows);
      if ('error' in payload) {
        form.setAlert(payload.error);
        return;
      }
      // A refusal of `sales.1.rate` belongs to the grid row that was sent second.
      // (Filled in place: the submit handler holds this object.)
      for (const key of Object.keys(aliases.current)) delete aliases.current[key];
      Object.assign(
        aliases.current,
        Object.fromEntries(
          payload.index.flatMap((row, i) => FIELDS.map((f) => [`sales.${i}.${f}`, `rows.${row}.${f}`])),
        ),
      );
      const answer = (await write.mutateAsync(payload.body)) as { count?: number };
      notify(`${answer.count ?? payload.body.sales.length} sales processed successfully!`);
      form.reset({ sale_date: v.sale_date, godown_id: '', product_id: '', rows: [{ ...EMPTY_ROW }] });
    },
    { aliases: aliases.current },
  );
  const addRow = () => {
    rows.append({ ...EMPTY_ROW }, { shouldFocus: false });
    // Focus the new row's agent once it is on screen.
    setTimeout(() => {
      const pickers = gridRef.current?.querySelectorAll<HTMLInputElement>('input[role="combobox"]');
      pickers?.[pickers.length - 1]?.focus();
    }, 0);
  };
  // Enter on the last cell of the last row starts a new row instead of saving.
  const onGridKey = (e: KeyboardEvent<HTMLFieldSetElement>) => {
    const target = e.target as HTMLInputElement;
    if (e.key !== 'Enter' || e.ctrlKey || e.metaKey || e.shiftKey) return;
    if (target.name === `rows.${rows.fields.length - 1}.clearing_charge`) {
      e.preventDefault();
      e.stopPropagation();
      addRow();
    }
  };
  return (
    <Page title="Bulk Sale">
      <FormProvider {...form}>
        <form
          noValidate
          onKeyDown={handleFormKeyDown}
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <div className={styles.common}>
            <DateField name="sale_date" label="Sale Date" required />
            <EntityField kind="Godown" name="godown_id" label="Godown" required />
            <ProductField />
          </div>
          <Text
            as="h2"
            weight="semibold"
            block
            style={{ margin: `${tokens.spacingVerticalL} 0 ${tokens.spacingVerticalS}` }}
          >
            Sales
          </Text>
          <fieldset className={styles.grid} ref={gridRef} onKeyDown={onGridKey} aria-label="Sale rows">
            {rows.fields.map((field, i) => (
              <div key={field.id} className={styles.row} data-testid="bulk-row">
                <Text className={styles.number}>{i + 1}</Text>
                <EntityField kind="Agent" name={`rows.${i}.agent_id`} label={`Agent (row ${i + 1})`} />
                <DecimalField name={`rows.${i}.quantity`} label="Quantity" scale={4} />
                <DecimalField name={`rows.${i}.rate`} label="Rate" scale={4} />
                <DecimalField name={`rows.${i}.clearing_charge`} label="Clearing Charge" scale={2} />
                <Tooltip content={`Remove row ${i + 1}`} relationship="label">
                  <Button
                    appearance="subtle"
                    icon={<DeleteRegular />}
                    disabled={rows.fields.length === 1}
                    onClick={() => rows.remove(i)}
                  />
                </Tooltip>
              </div>
            ))}
          </fieldset>
          <ErrorAlert text={form.alert} />
          <div className={styles.footer}>
            <Button icon={<AddRegular />} onClick={addRow}>
              Add Row
            </Button>
            <RoleGate roles={['Admin', 'Manager']}>
              <Button appearance="primary" type="submit" disabled={form.formState.isSubmitting}>
                {form.formState.isSubmitting ? <Spinner size="tiny" /> : 'Save Sales'}
              </Button>
            </RoleGate>
          </div>
        </form>
      </FormProvider>
    </Page>
  );
}
