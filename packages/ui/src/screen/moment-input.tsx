import { momentProblem, parseMoment, showMoment } from './date-text.ts';
import { type TextKind, TypedInput, type TypedInputProps } from './typed-input.tsx';

export const MOMENT: TextKind = { parse: parseMoment, show: showMoment, problem: momentProblem };

/**
 * A moment (time travel's 'As known at'): typed as a date in the app's forms and a 24-hour time,
 * '25 Nov 2026 14:30' or '25/11/2026 14:30:05', in the zone the app shows moments in
 * (`timeZoneLabel()`, the browser's); the value is the ISO instant ('...Z'), as the API takes it.
 */
export function MomentInput(props: TypedInputProps) {
  return <TypedInput {...props} kind={MOMENT} placeholder={props.placeholder ?? 'DD Mon YYYY HH:mm'} />;
}
