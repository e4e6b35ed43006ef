import { type Session, SessionContext } from '@bahi/ui';
import { fakeSession } from '@bahi/ui/testing';
import { FluentProvider, webDarkTheme } from '@fluentui/react-components';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';

export { ADMIN, fakeSession, VALID_LICENSE } from '@bahi/ui/testing';

/** Shows where the router ended up, for redirect assertions (the path alone). */
export function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname}</output>;
}

/** A screen inside Fluent, a router at `path` and a session. */
export function renderAt(path: string, ui: ReactNode, session: Session = fakeSession()) {
  return render(
    <FluentProvider theme={webDarkTheme}>
      <SessionContext.Provider value={session}>
        <MemoryRouter initialEntries={[path]}>
          {ui}
          <Routes>
            <Route path="*" element={<Where />} />
          </Routes>
        </MemoryRouter>
      </SessionContext.Provider>
    </FluentProvider>,
  );
}
