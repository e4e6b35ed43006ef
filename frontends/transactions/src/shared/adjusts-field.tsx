import { adjustsWords } from '@bahi/contracts/books-words';
import { useController, useFormContext } from '@bahi/ui/form';
import { Button, Field, makeStyles, Text, tokens } from '@fluentui/react-components';
import { DismissRegular } from '@fluentui/react-icons';
import type { AdjustsRef } from './record-list-page.tsx';

const useStyles = makeStyles({
  row: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
});

/**
 * The record this entry adjusts (issue #30): "Adjusts Purchase of 15 Oct 2026", with a button
 * that clears it (the entry is then an ordinary one). Nothing shows when the entry adjusts
 * nothing; the server's refusal of the reference shows here, on its field.
 */
export function AdjustsField(props: { reference: AdjustsRef | null | undefined }) {
  const styles = useStyles();
  const { control } = useFormContext();
  const { field, fieldState } = useController({ name: 'adjusts', control });
  if (!field.value) return null;
  const words =
    props.reference && props.reference.id === field.value
      ? adjustsWords(props.reference)
      : 'Adjusts a record';
  return (
    <Field label="Adjustment" validationMessage={fieldState.error?.message}>
      <span className={styles.row}>
        <Text weight="semibold" data-testid="adjusts-words">
          {words}
        </Text>
        <Button
          ref={field.ref}
          size="small"
          appearance="subtle"
          icon={<DismissRegular />}
          onClick={() => field.onChange(null)}
        >
          Not an adjustment
        </Button>
      </span>
    </Field>
  );
}
