import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { CalendarRegular } from '@fluentui/react-icons';
import { useRef } from 'react';
import { DAY_FORMS, dateProblem, parseDay, showDay } from './date-text.ts';
import { type TextKind, TypedInput, type TypedInputProps } from './typed-input.tsx';

const useDateStyles = makeStyles({
  hidden: { position: 'absolute', opacity: 0, width: '1px', height: '1px', pointerEvents: 'none', border: 0 },
  wrap: { position: 'relative', display: 'flex', gap: tokens.spacingHorizontalXS, minWidth: 0, flexGrow: 1 },
  input: { flexGrow: 1, minWidth: 0 },
});

export const DAY: TextKind = {
  parse: parseDay,
  show: showDay,
  problem: dateProblem,
};

/** The hint a date field may show: the forms it takes. */
export const DAY_HINT = `Type a date as ${DAY_FORMS}.`;

/**
 * A business date: shown in the app's format ('24 Nov 2026'), typed as that or as 24/11/2026 or
 * 2026-11-24 (DAY_FORMS), or picked from the browser's calendar. The value is the day
 * 'YYYY-MM-DD'. What is typed and is no date stays on screen with its message (`onProblem`).
 */
export function DateInput(props: TypedInputProps & { label?: string }) {
  const styles = useDateStyles();
  const picker = useRef<HTMLInputElement>(null);
  return (
    <span className={styles.wrap}>
      <TypedInput
        {...props}
        kind={DAY}
        className={styles.input}
        placeholder={props.placeholder ?? 'DD Mon YYYY'}
      />
      <Button
        appearance="subtle"
        icon={<CalendarRegular />}
        aria-label={props.label ? `Choose ${props.label.toLowerCase()} from a calendar` : 'Choose a date'}
        disabled={props.disabled}
        tabIndex={-1}
        onClick={() => picker.current?.showPicker?.()}
      />
      <input
        ref={picker}
        type="date"
        tabIndex={-1}
        aria-hidden="true"
        className={styles.hidden}
        value={/^\d{4}-\d{2}-\d{2}$/.test(props.value) ? props.value : ''}
        onChange={(e) => {
          if (!e.target.value) return;
          props.onProblem?.(undefined);
          props.onChange(e.target.value);
        }}
      />
    </span>
  );
}
