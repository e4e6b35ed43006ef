import { type LicenseInfo, type Session, SessionContext, type User } from '@bahi/ui';
import { FluentProvider, webDarkTheme } from '@fluentui/react-components';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';

export const ADMIN: User = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Asha Admin',
  email: 'asha@bahi.test',
  phone: null,
  role: 'Admin',
  is_active: true,
};

export const VALID_LICENSE: LicenseInfo = {
  isValid: true,
  reason: null,
  config: {
    status: 'Active',
    type: 'Standard',
    expires_at: '2099-01-01T00:00:00.000Z',
    grace_period_days: 7,
    expiry_notification_days: 15,
  },
};

export function fakeSession(over: Partial<Session> = {}): Session {
  return {
    status: 'signed-in',
    user: ADMIN,
    license: VALID_LICENSE,
    login: async () => {},
    logout: () => {},
    retryLicense: async () => {},
    revalidate: async () => {},
    ...over,
  };
}

/** Shows where the router ended up, for redirect assertions. */
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
