import { Button, makeStyles, Tooltip, tokens } from '@fluentui/react-components';
import { DeleteRegular, EditRegular } from '@fluentui/react-icons';
import type { ReactNode } from 'react';

const useStyles = makeStyles({
  actions: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, flexWrap: 'nowrap' },
});

/** A row's buttons: its money action (Pay, Receive...) first, then edit and delete. */
export function RowActions(props: { name: string; onEdit(): void; onDelete(): void; children?: ReactNode }) {
  return (
    <span className={useStyles().actions}>
      {props.children}
      <Tooltip content={`Edit ${props.name}`} relationship="label">
        <Button appearance="subtle" size="small" icon={<EditRegular />} onClick={props.onEdit} />
      </Tooltip>
      <Tooltip content={`Delete ${props.name}`} relationship="label">
        <Button appearance="subtle" size="small" icon={<DeleteRegular />} onClick={props.onDelete} />
      </Tooltip>
    </span>
  );
}
