import { useSession } from '@bahi/ui';
import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { Outlet } from 'react-router';
import { LicenseBanner } from '../features/license/license-banner.tsx';
import { Drawer } from './drawer.tsx';
import { prefetchRemotes } from './prefetch.ts';
import { TopBar } from './top-bar.tsx';

const NARROW = '@media (max-width: 900px)';

const useStyles = makeStyles({
  root: {
    display: 'grid',
    gridTemplateRows: 'auto auto 1fr',
    gridTemplateColumns: 'auto 1fr',
    height: '100vh',
    backgroundColor: tokens.colorNeutralBackground3,
    color: tokens.colorNeutralForeground1,
  },
  top: { gridColumn: '1 / -1' },
  // Under the drawer's backdrop on a phone, like the rest of the page.
  banner: { gridColumn: '1 / -1', position: 'relative', zIndex: 0 },
  side: {
    gridRow: 3,
    minHeight: 0,
    [NARROW]: {
      position: 'fixed',
      top: '52px',
      bottom: 0,
      left: 0,
      zIndex: 10,
      transform: 'translateX(-100%)',
      // Closed, it is out of sight entirely: no shadow at the screen's edge, no tab stops.
      visibility: 'hidden',
      transitionProperty: 'transform, visibility',
      transitionDuration: tokens.durationNormal,
      '@media (prefers-reduced-motion: reduce)': { transitionDuration: '0s' },
    },
  },
  sideOpen: { [NARROW]: { transform: 'none', visibility: 'visible', boxShadow: tokens.shadow16 } },
  scrim: {
    display: 'none',
    [NARROW]: {
      display: 'block',
      position: 'fixed',
      inset: '52px 0 0 0',
      zIndex: 9,
      backgroundColor: 'rgba(0, 0, 0, 0.4)',
    },
  },
  main: {
    gridRow: 3,
    minWidth: 0,
    minHeight: 0,
    overflow: 'auto',
    // The containing block of what a screen positions absolutely (a phone table's visually hidden
    // header): without it such an element escapes this scroller and makes the page itself taller,
    // so a phone scrolled past the screen into blank page (3,364 px under an 844 px screen).
    position: 'relative',
    padding: tokens.spacingHorizontalXXL,
    [NARROW]: { gridColumn: '1 / -1', padding: tokens.spacingHorizontalM },
  },
});

/** Top bar, license banner, drawer (an overlay on narrow screens) and the screen. */
export function AppLayout() {
  const styles = useStyles();
  const { user } = useSession();
  const [open, setOpen] = useState(false);
  // Signed in: the remotes' code comes in while the person reads the first screen.
  useEffect(() => prefetchRemotes(), []);
  return (
    <div className={styles.root}>
      <div className={styles.top}>
        <TopBar onMenu={() => setOpen((o) => !o)} />
      </div>
      <div className={styles.banner}>
        <LicenseBanner />
      </div>
      {open ? <div className={styles.scrim} onClick={() => setOpen(false)} aria-hidden /> : null}
      <div className={mergeClasses(styles.side, open && styles.sideOpen)}>
        {user ? <Drawer userRole={user.role} onNavigate={() => setOpen(false)} /> : null}
      </div>
      <main className={styles.main}>
        <Outlet />
      </main>
    </div>
  );
}
