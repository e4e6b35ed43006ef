import { formatDateTime } from '@bahi/ui';
import { makeStyles, mergeClasses, Text, tokens } from '@fluentui/react-components';
import { AddCircleRegular, DeleteRegular, EditRegular, HistoryRegular } from '@fluentui/react-icons';
import type { ActivityEntry } from './api.ts';

const VERB: Record<string, string> = { CREATE: 'created', UPDATE: 'updated', DELETE: 'deleted' };

/**
 * 'Asha created a Purchase', 'System deleted an Expense': the user (or System), the action, the
 * model. 'an' before A, E, I, O; 'a User' (the only U among the logged entity types).
 */
export const activitySentence = (e: ActivityEntry) =>
  `${e.user?.name ?? 'System'} ${VERB[e.action_type] ?? e.action_type.toLowerCase()} ${/^[AEIO]/i.test(e.model_name) ? 'an' : 'a'} ${e.model_name}`;

const useStyles = makeStyles({
  list: { listStyle: 'none', margin: 0, padding: 0 },
  item: {
    display: 'flex',
    gap: tokens.spacingHorizontalM,
    alignItems: 'flex-start',
    padding: `${tokens.spacingVerticalS} 0`,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  icon: { fontSize: '20px', flexShrink: 0 },
  create: { color: tokens.colorPaletteGreenForeground1 },
  update: { color: tokens.colorPaletteBlueForeground2 },
  delete: { color: tokens.colorPaletteRedForeground1 },
  other: { color: tokens.colorNeutralForeground3 },
  time: { color: tokens.colorNeutralForeground3 },
});

export function RecentActivity({ entries }: { entries: ActivityEntry[] }) {
  const styles = useStyles();
  if (entries.length === 0) return <Text>No recent activity.</Text>;
  return (
    <ul className={styles.list}>
      {entries.map((e) => {
        const [Icon, tone] =
          e.action_type === 'CREATE'
            ? [AddCircleRegular, styles.create]
            : e.action_type === 'UPDATE'
              ? [EditRegular, styles.update]
              : e.action_type === 'DELETE'
                ? [DeleteRegular, styles.delete]
                : [HistoryRegular, styles.other];
        return (
          <li key={e.id} className={styles.item}>
            <Icon className={mergeClasses(styles.icon, tone)} aria-label={e.action_type.toLowerCase()} />
            <div>
              <Text block>{activitySentence(e)}</Text>
              <Text size={200} className={styles.time}>
                {formatDateTime(e.created_at)}
              </Text>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
