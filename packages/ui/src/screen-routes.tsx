import { makeStyles, Text, tokens } from '@fluentui/react-components';
import { Route, Routes } from 'react-router';
import { NotFoundPage, Page } from './page.tsx';
import { RouterLink } from './router-link.tsx';

/** One screen a remote serves: under /{base}/{path} (spec section 2, route table). */
export interface ScreenRoute {
  base: string;
  path: string;
  title: string;
}

/** What a remote's ./routes module exports by default: its routes under one base path. */
export type RemoteRoutesComponent = (props: { base: string }) => React.JSX.Element;

const useStyles = makeStyles({
  list: { margin: 0, paddingLeft: tokens.spacingHorizontalXL, lineHeight: tokens.lineHeightBase400 },
});

function Placeholder(props: { screen: ScreenRoute; all: ScreenRoute[]; remote: string }) {
  const styles = useStyles();
  return (
    <Page title={props.screen.title}>
      <Text>
        This screen is served by the <strong>{props.remote}</strong> remote; its content comes with the issue
        that builds it. The remote's routes:
      </Text>
      <ul className={styles.list} aria-label={`Routes of the ${props.remote} remote`}>
        {props.all.map((s) => (
          <li key={`${s.base}/${s.path}`}>
            <RouterLink to={`/${s.base}/${s.path.replace(/:(\w+)/g, '$1')}`}>{s.title}</RouterLink>{' '}
            <Text font="monospace" size={200}>
              /{s.base}/{s.path}
            </Text>
          </li>
        ))}
      </ul>
    </Page>
  );
}

/** A remote's screens under one base (the shell mounts /{base}/*); anything else is the 404 page. */
export function ScreenRoutes(props: { remote: string; base: string; screens: ScreenRoute[] }) {
  return (
    <Routes>
      {props.screens
        .filter((s) => s.base === props.base)
        .map((s) => (
          <Route
            key={s.path}
            path={s.path}
            element={<Placeholder screen={s} all={props.screens} remote={props.remote} />}
          />
        ))}
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
