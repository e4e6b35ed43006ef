import { Page, Panel, useSession } from '@bahi/ui';
import { Badge, makeStyles, Text, tokens } from '@fluentui/react-components';
import { InitialAvatar } from '../../shared/initial-avatar.tsx';

const useStyles = makeStyles({
  card: { maxWidth: '520px', padding: tokens.spacingHorizontalXL },
  grid: {
    display: 'grid',
    gridTemplateColumns: 'max-content 1fr',
    columnGap: tokens.spacingHorizontalXL,
    rowGap: tokens.spacingVerticalS,
    margin: 0,
  },
  head: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM },
  dt: { color: tokens.colorNeutralForeground3 },
  dd: { margin: 0, overflowWrap: 'anywhere' },
});

/** My Profile: who is signed in (changes go through an Admin in User Management). */
export function ProfilePage() {
  const styles = useStyles();
  const { user } = useSession();
  if (!user) return null;
  return (
    <Page title="My Profile">
      <Panel className={styles.card}>
        <div className={styles.head}>
          <InitialAvatar name={user.name} size={56} />
          <div>
            <Text as="h2" size={500} weight="semibold" block>
              {user.name}
            </Text>
            <Badge appearance="tint">{user.role}</Badge>
          </div>
        </div>
        <dl className={styles.grid}>
          <dt className={styles.dt}>Email</dt>
          <dd className={styles.dd}>{user.email}</dd>
          <dt className={styles.dt}>Phone</dt>
          <dd className={styles.dd}>{user.phone || 'N/A'}</dd>
          <dt className={styles.dt}>Role</dt>
          <dd className={styles.dd}>{user.role}</dd>
          <dt className={styles.dt}>Status</dt>
          <dd className={styles.dd}>{user.is_active ? 'Active' : 'Inactive'}</dd>
        </dl>
      </Panel>
    </Page>
  );
}
