import type { LineCorrection } from '@bahi/contracts';
import { showDay } from '@bahi/ui/screen';
import { Particulars } from './corrections.tsx';
import { RecordLink } from './record-drilldown.tsx';
import type { VColumn } from './virtual-table.tsx';

/** A report's Date column (the cashbook's, the day-wise's, the ledger's). */
export const dateColumn = <T extends { date: string }>(): VColumn<T> => ({
  key: 'date',
  header: 'Date',
  width: '120px',
  render: (r) => showDay(r.date),
});

/**
 * A journal line's Particulars (the cashbook's and the ledger's): the correction's tag, then the
 * words as the way to the line's record.
 */
export const particularsColumn = <
  T extends {
    date: string;
    particulars: string;
    correction: LineCorrection;
    record?: { type: string; id: string } | undefined;
  },
>(
  openRecord: (record: { type: string; id: string }) => void,
): VColumn<T> => ({
  key: 'particulars',
  header: 'Particulars',
  render: (r) => (
    <Particulars correction={r.correction}>
      {(className) => (
        <RecordLink
          text={r.particulars}
          date={r.date}
          record={r.record}
          onOpen={openRecord}
          className={className}
        />
      )}
    </Particulars>
  ),
});
