import { makeStyles, Text, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { RouterLink } from './router-link.tsx';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, minWidth: 0 },
  title: { margin: 0 },
  header: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalM,
  },
  center: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalM,
    paddingTop: '15vh',
    textAlign: 'center',
  },
});

/** A screen: its title, actions on the right, then its content. */
export function Page(props: { title: string; actions?: ReactNode; children?: ReactNode }) {
  const styles = useStyles();
  return (
    <section className={styles.page} aria-labelledby="page-title">
      <div className={styles.header}>
        <Text as="h1" id="page-title" size={600} weight="semibold" className={styles.title}>
          {props.title}
        </Text>
        {props.actions}
      </div>
      {props.children}
    </section>
  );
}

/** Any unknown path (spec section 2). */
export function NotFoundPage() {
  const styles = useStyles();
  return (
    <div className={styles.center}>
      <Text as="h1" size={800} weight="semibold">
        404
      </Text>
      <Text size={500}>Page Not Found</Text>
      <RouterLink to="/">Go to Dashboard</RouterLink>
    </div>
  );
}
