import { Input } from '@fluentui/react-components';
import { lazy, Suspense } from 'react';
import type { Party, PartyKind } from './parties.ts';

export interface EntityPickerProps {
  kind: PartyKind;
  /** Only parties of this city (spec section 5: a payment's collector is of the paid party's city). */
  cityId?: string | undefined;
  value: string;
  onChange(id: string, party: Party | undefined): void;
  onBlur?(): void;
  id?: string;
  name?: string;
  inputRef?: React.Ref<HTMLInputElement>;
  placeholder?: string;
  disabled?: boolean;
  invalid?: boolean;
  /** The chosen party's name, when the form starts with one (an edit). */
  initialLabel?: string;
  /** How a party is named in the list ('Self' for the collector being paid). */
  labelFor?(party: Party): string;
}

// Fluent's Combobox loads with the first picker on screen, not with every list's first screen.
const Impl = lazy(() => import('./entity-picker-impl.tsx'));

/**
 * A party chosen by typing: the server searches (so thousands of parties cost one short page),
 * arrows and Enter pick, and each option shows the party's current balance in its currency.
 * In @bahi/ui/screen so a list can filter by a party (PartyFilter) without loading the forms.
 */
export function EntityPicker(props: EntityPickerProps) {
  return (
    <Suspense fallback={<Input id={props.id} disabled placeholder={props.placeholder ?? 'Type to search'} />}>
      <Impl {...props} />
    </Suspense>
  );
}
