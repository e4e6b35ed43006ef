import type { Role } from '@bahi/ui';
import { makeStyles, mergeClasses, Text, tokens } from '@fluentui/react-components';
import {
  ArrowSwapRegular,
  BoardRegular,
  ChevronDownRegular,
  ChevronRightRegular,
  DatabaseRegular,
  DocumentDataRegular,
  MoneyRegular,
  SettingsRegular,
} from '@fluentui/react-icons';
import { type ReactElement, useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { activeGroups, isActive, isGroup, navFor } from './nav.ts';

export const DRAWER_WIDTH = 240;

const ICONS: Record<string, ReactElement> = {
  Dashboard: <BoardRegular />,
  masters: <DatabaseRegular />,
  transactions: <ArrowSwapRegular />,
  reports: <DocumentDataRegular />,
  financials: <MoneyRegular />,
  settings: <SettingsRegular />,
};

const useStyles = makeStyles({
  nav: {
    width: `${DRAWER_WIDTH}px`,
    boxSizing: 'border-box',
    height: '100%',
    overflowY: 'auto',
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalS}`,
    backgroundColor: tokens.colorNeutralBackground2,
    borderRight: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  list: { listStyle: 'none', margin: 0, padding: 0 },
  row: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    width: '100%',
    boxSizing: 'border-box',
    minHeight: '36px',
    padding: `0 ${tokens.spacingHorizontalM}`,
    border: 'none',
    borderRadius: tokens.borderRadiusMedium,
    background: 'transparent',
    color: tokens.colorNeutralForeground2,
    textDecoration: 'none',
    fontSize: tokens.fontSizeBase300,
    fontFamily: 'inherit',
    cursor: 'pointer',
    textAlign: 'left',
    ':hover': { backgroundColor: tokens.colorSubtleBackgroundHover, color: tokens.colorNeutralForeground1 },
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '-2px' },
  },
  icon: { fontSize: '20px', display: 'inline-flex' },
  sub: { paddingLeft: '42px' },
  active: {
    backgroundColor: tokens.colorBrandBackground2,
    color: tokens.colorBrandForeground2,
    fontWeight: tokens.fontWeightSemibold,
    ':hover': { backgroundColor: tokens.colorBrandBackground2Hover, color: tokens.colorBrandForeground2 },
  },
  label: { flexGrow: 1 },
});

/** The side navigation: what the role may open, the active item highlighted, its group open. */
export function Drawer(props: { userRole: Role; onNavigate?(): void }) {
  const styles = useStyles();
  const { pathname } = useLocation();
  const entries = navFor(props.userRole);
  const [open, setOpen] = useState<Set<string>>(() => new Set(activeGroups(entries, pathname)));
  const activeKey = activeGroups(entries, pathname).join();
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run when the active group changes
  useEffect(() => {
    const auto = activeGroups(entries, pathname);
    if (auto.length) setOpen((s) => (auto.every((k) => s.has(k)) ? s : new Set([...s, ...auto])));
  }, [activeKey]);
  const toggle = (key: string) =>
    setOpen((s) => {
      const n = new Set(s);
      if (n.has(key)) n.delete(key);
      else n.add(key);
      return n;
    });

  return (
    <nav className={styles.nav} aria-label="Main">
      <ul className={styles.list}>
        {entries.map((entry) => {
          if (!isGroup(entry)) {
            const active = isActive(entry.path, pathname);
            return (
              <li key={entry.path}>
                <Link
                  to={entry.path}
                  className={mergeClasses(styles.row, active && styles.active)}
                  aria-current={active ? 'page' : undefined}
                  onClick={props.onNavigate}
                >
                  <span className={styles.icon}>{ICONS[entry.label]}</span>
                  <span className={styles.label}>{entry.label}</span>
                </Link>
              </li>
            );
          }
          const expanded = open.has(entry.key);
          const listId = `nav-group-${entry.key}`;
          return (
            <li key={entry.key}>
              <button
                type="button"
                className={styles.row}
                aria-expanded={expanded}
                aria-controls={listId}
                onClick={() => toggle(entry.key)}
              >
                <span className={styles.icon}>{ICONS[entry.key]}</span>
                <Text className={styles.label}>{entry.label}</Text>
                {expanded ? <ChevronDownRegular /> : <ChevronRightRegular />}
              </button>
              {expanded ? (
                <ul className={styles.list} id={listId}>
                  {entry.items.map((item) => {
                    const active = isActive(item.path, pathname);
                    return (
                      <li key={item.path}>
                        <Link
                          to={item.path}
                          className={mergeClasses(styles.row, styles.sub, active && styles.active)}
                          aria-current={active ? 'page' : undefined}
                          onClick={props.onNavigate}
                        >
                          {item.label}
                        </Link>
                      </li>
                    );
                  })}
                </ul>
              ) : null}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
