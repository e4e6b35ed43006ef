import { useSession } from '@bahi/ui';
import {
  Button,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  makeStyles,
  Switch,
  Text,
  tokens,
} from '@fluentui/react-components';
import { NavigationRegular, PersonRegular, SignOutRegular } from '@fluentui/react-icons';
import { useNavigate } from 'react-router';
import { NotificationBell } from '../features/notifications/notification-popup.tsx';
import { InitialAvatar } from '../shared/initial-avatar.tsx';
import { useTheme } from './theme.tsx';

const useStyles = makeStyles({
  bar: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    height: '52px',
    padding: `0 ${tokens.spacingHorizontalM}`,
    backgroundColor: tokens.colorNeutralBackground1,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  brand: { fontWeight: tokens.fontWeightSemibold, fontSize: tokens.fontSizeBase500, flexGrow: 1 },
  menuButton: { '@media (min-width: 901px)': { display: 'none' } },
  name: { '@media (max-width: 600px)': { display: 'none' } },
  themeLabel: { '@media (max-width: 600px)': { display: 'none' } },
  user: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
});

/** Theme switch, bell, the user's name and avatar with My Profile and Logout. */
export function TopBar(props: { onMenu(): void }) {
  const styles = useStyles();
  const { user, logout } = useSession();
  const { theme, setTheme } = useTheme();
  const navigate = useNavigate();
  const name = user?.name ?? '';
  return (
    <header className={styles.bar}>
      <Button
        className={styles.menuButton}
        appearance="subtle"
        icon={<NavigationRegular />}
        aria-label="Open navigation"
        onClick={props.onMenu}
      />
      <Text className={styles.brand}>Bahi</Text>
      <Switch
        checked={theme === 'dark'}
        onChange={(_, d) => setTheme(d.checked ? 'dark' : 'light')}
        label={<span className={styles.themeLabel}>Dark mode</span>}
        aria-label="Dark mode"
        labelPosition="before"
      />
      <NotificationBell />
      <Menu positioning="below-end">
        <MenuTrigger disableButtonEnhancement>
          <Button appearance="subtle" aria-label={`User menu for ${name}`}>
            <span className={styles.user}>
              <Text className={styles.name}>{name}</Text>
              <InitialAvatar name={name} />
            </span>
          </Button>
        </MenuTrigger>
        <MenuPopover>
          <MenuList>
            <MenuItem icon={<PersonRegular />} onClick={() => navigate('/profile')}>
              My Profile
            </MenuItem>
            <MenuItem
              icon={<SignOutRegular />}
              onClick={() => {
                logout();
                navigate('/login');
              }}
            >
              Logout
            </MenuItem>
          </MenuList>
        </MenuPopover>
      </Menu>
    </header>
  );
}
