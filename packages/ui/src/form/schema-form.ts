import { fieldPaths, splitServerErrors } from '@bahi/ui/screen';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import {
  type DefaultValues,
  type FieldValues,
  type Path,
  type UseFormReturn,
  useForm,
} from 'react-hook-form';
import type { z } from 'zod';

export const SAVE_FAILED = 'An unexpected error occurred.';

export type SchemaForm<In extends FieldValues, Out> = UseFormReturn<In, unknown, Out> & {
  /** What the dialog's alert shows: a failure that has no field of its own. */
  alert: string | null;
  setAlert(text: string | null): void;
  /**
   * The form's submit handler: checks the values by the schema (the server's own, from
   * @bahi/contracts), runs `save`, and on a refusal puts each `errors[].path` on its field and
   * the rest in the alert. Resolves true when saved.
   */
  submit(save: (values: Out) => Promise<unknown>, options?: SubmitOptions): () => Promise<boolean>;
  /**
   * Save and New's fresh form: `values` become the form's (every field given, none undefined),
   * the alert and errors go, and the focus goes to `focus`, the first field to type; without it
   * the focus stays on the Save and New button, disabled while saving, so it fell to the page
   * and typing and Esc stopped working (issue #25).
   */
  startNext(values: In, focus: Path<In>): void;
};

export interface SubmitOptions {
  fallback?: string;
  /** Server paths that belong to another field of the form ('paid_from_entity_type' -> the picker). */
  aliases?: Record<string, string>;
}

/** react-hook-form with the zod resolver over a request schema: one way to build a form. */
export function useSchemaForm<S extends z.ZodType<unknown, FieldValues>>(
  schema: S,
  defaultValues: DefaultValues<z.input<S>>,
): SchemaForm<z.input<S>, z.output<S>> {
  const form = useForm<z.input<S>, unknown, z.output<S>>({
    // biome-ignore lint/suspicious/noExplicitAny: the resolver's generics cannot follow S through zod's own
    resolver: zodResolver(schema as any) as any,
    defaultValues,
    mode: 'onTouched',
  });
  const [alert, setAlert] = useState<string | null>(null);
  const submit =
    (save: (values: z.output<S>) => Promise<unknown>, options: SubmitOptions = {}) =>
    async () => {
      let saved = false;
      setAlert(null);
      await form.handleSubmit(async (values) => {
        try {
          await save(values);
          saved = true;
        } catch (error) {
          const split = splitServerErrors(
            error,
            fieldPaths(form.getValues()),
            options.fallback ?? SAVE_FAILED,
            options.aliases,
          );
          for (const [path, message] of Object.entries(split.fields)) {
            form.setError(path as Path<z.input<S>>, { type: 'server', message }, { shouldFocus: true });
          }
          setAlert(split.alert);
        }
      })();
      return saved;
    };
  const startNext = (values: z.input<S>, focus: Path<z.input<S>>) => {
    form.reset(values);
    setAlert(null);
    // After the save's busy state has gone and the fields show the new values.
    setTimeout(() => form.setFocus(focus, { shouldSelect: true }), 0);
  };
  return Object.assign(form, { alert, setAlert, submit, startNext });
}
