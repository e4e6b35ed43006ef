import { followLink, Page } from '@bahi/ui';
import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { useNavigate } from 'react-router';
import { NotificationItem } from './notification-item.tsx';
import { useNotifications } from './use-notifications.ts';

const useStyles = makeStyles({
  list: {
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    overflow: 'hidden',
  },
  empty: { padding: tokens.spacingVerticalXL, textAlign: 'center', color: tokens.colorNeutralForeground3 },
});

/** All notifications (the server's most recent 100). */
export function NotificationsPage() {
  const styles = useStyles();
  const navigate = useNavigate();
  const { notifications, unreadCount, read, readAll } = useNotifications(100);
  return (
    <Page
      title="Notifications"
      actions={
        unreadCount > 0 ? (
          <Button appearance="primary" onClick={() => void readAll()}>
            Mark all as read
          </Button>
        ) : null
      }
    >
      <div className={styles.list}>
        {notifications.length === 0 ? (
          <div className={styles.empty}>No notifications</div>
        ) : (
          notifications.map((n) => (
            <NotificationItem
              key={n.id}
              notification={n}
              onClick={async () => {
                await read(n);
                if (n.link) await followLink(n.link, navigate);
              }}
            />
          ))
        )}
      </div>
    </Page>
  );
}
