import { useSearchParams } from '@bahi/ui';
import { useCallback, useEffect, useMemo, useState } from 'react';

/**
 * A report's filters that take effect on Apply (Apply Filter, Apply Date/Category): typed into
 * a draft, then written to the URL together (a history entry), so a link or Back reproduces
 * the report. A filter missing from the URL takes its default (today for the day-wise and
 * cashbook dates; '' for none).
 */
export function useAppliedFilters<F extends string>(defaults: Record<F, string>) {
  const [params, setParams] = useSearchParams();
  const names = Object.keys(defaults) as F[];
  const key = names.map((n) => params.get(n) ?? `\u0000${defaults[n]}`).join('\u0001');
  // biome-ignore lint/correctness/useExhaustiveDependencies: recomputed when the applied values change
  const applied = useMemo(
    () => Object.fromEntries(names.map((n) => [n, params.get(n) ?? defaults[n]])) as Record<F, string>,
    [key],
  );
  const [draft, setDraft] = useState(applied);
  // Back and forward (or a link) bring their values into the boxes.
  useEffect(() => setDraft(applied), [applied]);
  const apply = useCallback(
    (values?: Partial<Record<F, string>>) => {
      const next = { ...draft, ...values };
      setDraft(next);
      setParams(
        (prev) => {
          const out = new URLSearchParams(prev);
          for (const n of names) {
            const v = next[n] ?? '';
            // '' is kept only where it differs from the default (a cleared day-wise date).
            if (!v && !defaults[n]) out.delete(n);
            else out.set(n, v);
          }
          out.delete('page');
          return out;
        },
        { replace: false },
      );
    },
    [draft, setParams, names, defaults],
  );
  const set = useCallback((name: F, value: string) => setDraft((d) => ({ ...d, [name]: value })), []);
  /** Enter in a filter's box applies, as Apply does, with what the box gave (null: no value). */
  const enter = (name: F) => (value: string | null) => {
    if (value !== null) apply({ [name]: value } as Partial<Record<F, string>>);
  };
  return { applied, draft, set, apply, enter };
}
