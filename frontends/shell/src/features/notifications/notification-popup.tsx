import { followLink, RouterLink } from '@bahi/ui';
import {
  Button,
  CounterBadge,
  makeStyles,
  Popover,
  PopoverSurface,
  PopoverTrigger,
  Text,
  tokens,
} from '@fluentui/react-components';
import { AlertRegular } from '@fluentui/react-icons';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { POPUP_LIMIT } from './api.ts';
import { NotificationItem } from './notification-item.tsx';
import { useNotifications } from './use-notifications.ts';

export const POPUP_WIDTH = 360;
export const POPUP_MAX_HEIGHT = 450;

const useStyles = makeStyles({
  surface: {
    width: `min(${POPUP_WIDTH}px, calc(100vw - 16px))`,
    maxHeight: `${POPUP_MAX_HEIGHT}px`,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    boxSizing: 'border-box',
  },
  head: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  list: { overflowY: 'auto', flexGrow: 1, minHeight: 0 },
  empty: { padding: tokens.spacingVerticalXL, textAlign: 'center', color: tokens.colorNeutralForeground3 },
  foot: {
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderTop: `1px solid ${tokens.colorNeutralStroke2}`,
    textAlign: 'center',
  },
  bell: { position: 'relative', display: 'inline-flex' },
  badge: { position: 'absolute', top: '-6px', right: '-8px' },
});

/** The bell with its unread badge and the popup of the 7 most recent notifications. */
export function NotificationBell() {
  const styles = useStyles();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const { notifications, unreadCount, read, readAll, refresh } = useNotifications(POPUP_LIMIT);
  return (
    <Popover
      open={open}
      onOpenChange={(_, d) => {
        setOpen(d.open);
        if (d.open) void refresh();
      }}
      positioning="below-end"
      trapFocus
    >
      <PopoverTrigger disableButtonEnhancement>
        <Button
          appearance="subtle"
          aria-label={unreadCount ? `Notifications, ${unreadCount} unread` : 'Notifications'}
          icon={
            <span className={styles.bell}>
              <AlertRegular />
              {unreadCount > 0 ? (
                <CounterBadge
                  className={styles.badge}
                  count={unreadCount}
                  size="small"
                  color="danger"
                  aria-hidden
                  data-testid="unread-badge"
                />
              ) : null}
            </span>
          }
        />
      </PopoverTrigger>
      <PopoverSurface className={styles.surface} aria-label="Notifications">
        <div className={styles.head}>
          <Text weight="semibold">Notifications</Text>
          {unreadCount > 0 ? (
            <Button size="small" appearance="transparent" onClick={() => void readAll()}>
              Mark all as read
            </Button>
          ) : null}
        </div>
        <div className={styles.list}>
          {notifications.length === 0 ? (
            <div className={styles.empty}>No new notifications</div>
          ) : (
            notifications.map((n) => (
              <NotificationItem
                key={n.id}
                notification={n}
                onClick={async () => {
                  await read(n);
                  if (n.link) {
                    setOpen(false);
                    await followLink(n.link, navigate);
                  }
                }}
              />
            ))
          )}
        </div>
        <div className={styles.foot}>
          <span onClickCapture={() => setOpen(false)}>
            <RouterLink to="/notifications">View all notifications</RouterLink>
          </span>
        </div>
      </PopoverSurface>
    </Popover>
  );
}
