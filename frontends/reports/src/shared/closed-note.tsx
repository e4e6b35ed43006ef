import { useQuery } from '@bahi/ui/screen';
import { lazy, Suspense } from 'react';
import { closedQuery } from './closed-api.ts';
import { closedDetail, closedLine } from './closed-words.ts';
import type { TimeTravel } from './time-travel.tsx';

// Fluent's message bar loads with the first closed period shown, not with every report.
const Impl = lazy(() => import('./closed-note-impl.tsx'));

/**
 * Reports as closed (issue #30): on a report as of a date in a closed period, when and by whom
 * it was closed; after a reopening and a restatement, that the figures differ, with the
 * time-travel compare against the close (the report as recorded at the close's moment).
 */
export function ClosedNote({ tt }: { tt: TimeTravel }) {
  const query = useQuery(closedQuery({ asOf: tt.asOf, knownAt: tt.knownAt }));
  const close = query.isError ? null : query.data?.close;
  if (!tt.asOf || !close) return null;
  const comparing = tt.compare === close.closed_at;
  const compare = close.now.same || comparing ? undefined : () => tt.set({ compare: close.closed_at });
  return (
    <section aria-label="Closed period">
      <Suspense
        fallback={
          <div role="status">
            {closedLine(close)}. {closedDetail(close, comparing)}
          </div>
        }
      >
        <Impl close={close} comparing={comparing} onCompare={compare} />
      </Suspense>
    </section>
  );
}
