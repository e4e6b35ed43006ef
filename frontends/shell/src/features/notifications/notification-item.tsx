import { relativeTime } from '@bahi/ui';
import { makeStyles, mergeClasses, Text, tokens } from '@fluentui/react-components';
import {
  CheckmarkCircleRegular,
  DismissCircleRegular,
  InfoRegular,
  WarningRegular,
} from '@fluentui/react-icons';
import type { Notification } from './api.ts';

const useStyles = makeStyles({
  item: {
    display: 'flex',
    gap: tokens.spacingHorizontalM,
    width: '100%',
    boxSizing: 'border-box',
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    border: 'none',
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
    background: 'transparent',
    color: tokens.colorNeutralForeground1,
    textAlign: 'left',
    fontFamily: 'inherit',
    cursor: 'pointer',
    ':hover': { backgroundColor: tokens.colorSubtleBackgroundHover },
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '-2px' },
  },
  unread: { backgroundColor: tokens.colorBrandBackground2 },
  icon: { fontSize: '20px', flexShrink: 0, paddingTop: '2px' },
  info: { color: tokens.colorPaletteBlueForeground2 },
  warning: { color: tokens.colorPaletteDarkOrangeForeground1 },
  success: { color: tokens.colorPaletteGreenForeground1 },
  error: { color: tokens.colorPaletteRedForeground1 },
  text: { display: 'flex', flexDirection: 'column', gap: '2px', minWidth: 0 },
  time: { color: tokens.colorNeutralForeground3 },
});

const ICON = {
  info: InfoRegular,
  warning: WarningRegular,
  success: CheckmarkCircleRegular,
  error: DismissCircleRegular,
};

/** One notification: type icon, title, message, relative time; unread ones highlighted. */
export function NotificationItem(props: { notification: Notification; onClick(): void; now?: Date }) {
  const styles = useStyles();
  const n = props.notification;
  const Icon = ICON[n.type] ?? InfoRegular;
  return (
    <button
      type="button"
      className={mergeClasses(styles.item, !n.is_read && styles.unread)}
      onClick={props.onClick}
      data-unread={!n.is_read}
      aria-label={`${n.is_read ? '' : 'Unread: '}${n.title}`}
    >
      <Icon className={mergeClasses(styles.icon, styles[n.type])} aria-label={n.type} />
      <span className={styles.text}>
        <Text weight={n.is_read ? 'regular' : 'semibold'}>{n.title}</Text>
        <Text size={200}>{n.message}</Text>
        <Text size={100} className={styles.time}>
          {relativeTime(n.created_at, props.now)}
        </Text>
      </span>
    </button>
  );
}
