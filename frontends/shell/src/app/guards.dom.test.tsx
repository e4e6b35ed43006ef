import { cleanup, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN, fakeSession, renderAt } from '../testing/render.tsx';
import { RedirectIfSignedIn, RequireAuth, RequireRole } from './guards.tsx';

afterEach(cleanup);

const app = (
  <Routes>
    <Route
      path="/login"
      element={
        <RedirectIfSignedIn>
          <p>login form</p>
        </RedirectIfSignedIn>
      }
    />
    <Route
      path="/settings/users"
      element={
        <RequireAuth>
          <RequireRole roles={['Admin']}>
            <p>users screen</p>
          </RequireRole>
        </RequireAuth>
      }
    />
    <Route
      path="/"
      element={
        <RequireAuth>
          <p>dashboard</p>
        </RequireAuth>
      }
    />
  </Routes>
);

describe('guards', () => {
  it('sends an unauthenticated visitor to /login', () => {
    renderAt('/settings/users', app, fakeSession({ status: 'signed-out', user: null, license: null }));
    expect(screen.getByTestId('where').textContent).toBe('/login');
    expect(screen.getByText('login form')).toBeTruthy();
  });

  it('shows the License Invalid page with the reason instead of the app', async () => {
    renderAt(
      '/',
      app,
      fakeSession({
        license: { isValid: false, reason: 'The license expired on 2026-01-01.', config: null },
      }),
    );
    expect(await screen.findByText('License Invalid')).toBeTruthy();
    expect(screen.queryByText('dashboard')).toBeNull();
    expect(screen.getByText('The license expired on 2026-01-01.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry License Check' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeTruthy();
  });

  it('sends a role that may not open a screen to /', () => {
    renderAt('/settings/users', app, fakeSession({ user: { ...ADMIN, role: 'Manager' } }));
    expect(screen.getByTestId('where').textContent).toBe('/');
    expect(screen.getByText('dashboard')).toBeTruthy();
  });

  it('lets an Admin in, and sends a signed-in user away from /login', () => {
    renderAt('/settings/users', app);
    expect(screen.getByText('users screen')).toBeTruthy();
    cleanup();
    renderAt('/login', app);
    expect(screen.getByTestId('where').textContent).toBe('/');
  });
});
