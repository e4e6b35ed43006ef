import { Input, makeStyles } from '@fluentui/react-components';
import { useState } from 'react';

/** How one kind of typed value reads and shows: a day, a moment. */
export interface TextKind {
  /** The value typed, or null when the text is none (or empty). */
  parse(text: string): string | null;
  /** The value as the app shows it. */
  show(value: string): string;
  /** Why a text that does not parse is none, for the field's message. */
  problem(text: string): string | null;
}

/**
 * What a date or moment box takes. `onChange` hears only values (or '' when emptied); what
 * was typed and is none stays on screen, goes to `onInvalid` (a form keeps it, so its schema
 * refuses to submit) and its message to `onProblem` (the surrounding Field shows it).
 */
export interface TypedInputProps {
  value: string;
  onChange(value: string): void;
  onInvalid?(text: string): void;
  onProblem?(message: string | undefined): void;
  /** Enter pressed: the text is taken first; `value` is what it gave, null when it is none. */
  onEnter?(value: string | null): void;
  onBlur?(): void;
  id?: string;
  name?: string;
  disabled?: boolean;
  invalid?: boolean;
  placeholder?: string;
  inputRef?: React.Ref<HTMLInputElement>;
  className?: string;
}

const useStyles = makeStyles({
  // The native input's own width (20 characters) would keep the field from narrowing on a phone.
  native: { minWidth: 0, width: '100%' },
});

/** The text box under DateInput and MomentInput: typed freely, read on Enter or on leaving. */
export function TypedInput(props: TypedInputProps & { kind: TextKind }) {
  const { kind } = props;
  const styles = useStyles();
  // A value that is not one (a form holding what was typed) shows as it is.
  const shown = (value: string) => (value && kind.parse(value) !== null ? kind.show(value) : value);
  const [text, setText] = useState(() => shown(props.value));
  const [seen, setSeen] = useState(props.value);
  if (props.value !== seen) {
    // A value set from outside (a reset, Back, a calendar pick) replaces what is in the box.
    setSeen(props.value);
    setText(shown(props.value));
  }
  const take = (): string | null => {
    const typed = text.trim();
    // Unchanged: the value stays exactly as it was (a moment keeps its milliseconds).
    if (typed === shown(props.value).trim()) {
      if (kind.parse(typed) !== null || !typed) props.onProblem?.(undefined);
      return kind.parse(typed) !== null ? props.value : typed ? null : '';
    }
    if (!typed) {
      props.onProblem?.(undefined);
      props.onChange('');
      return '';
    }
    const value = kind.parse(typed);
    if (value === null) {
      props.onProblem?.(kind.problem(typed) ?? undefined);
      props.onInvalid?.(typed);
      return null;
    }
    props.onProblem?.(undefined);
    setText(kind.show(value));
    props.onChange(value);
    return value;
  };
  return (
    <Input
      className={props.className}
      input={{ className: styles.native }}
      id={props.id}
      ref={props.inputRef}
      name={props.name}
      value={text}
      placeholder={props.placeholder}
      autoComplete="off"
      disabled={props.disabled}
      aria-invalid={props.invalid || undefined}
      onChange={(_, d) => setText(d.value)}
      onKeyDown={(e) => {
        if (e.key !== 'Enter' || e.nativeEvent.isComposing) return;
        const value = take();
        props.onEnter?.(value);
      }}
      onBlur={() => {
        take();
        props.onBlur?.();
      }}
    />
  );
}
