import {
  Button,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
} from '@fluentui/react-components';
import { type Close, closedDetail, closedLine } from './closed-words.ts';

export default function ClosedNoteImpl({
  close,
  comparing,
  onCompare,
}: {
  close: Close;
  comparing: boolean;
  onCompare: (() => void) | undefined;
}) {
  return (
    <MessageBar intent={close.now.same ? 'info' : 'warning'} role="status" layout="multiline">
      <MessageBarBody>
        <MessageBarTitle>{closedLine(close)}</MessageBarTitle>
        {closedDetail(close, comparing)}
      </MessageBarBody>
      {onCompare ? (
        <MessageBarActions>
          <Button onClick={onCompare}>Compare with the close</Button>
        </MessageBarActions>
      ) : null}
    </MessageBar>
  );
}
