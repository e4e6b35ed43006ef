import { NotFoundPage, SnackbarProvider } from '@bahi/ui';
import { Spinner } from '@fluentui/react-components';
import { lazy, type ReactNode, Suspense } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { LiveEventsProvider } from '../shared/live-events.tsx';
import { RedirectIfSignedIn, RequireAuth, RequireRole } from './guards.tsx';
import { AppLayout } from './layout.tsx';
import { RemoteOutlet } from './remote-outlet.tsx';
import { SessionProvider } from './session-provider.tsx';
import { ThemeProvider } from './theme.tsx';

// Screens load when first opened, so the first page carries only the shell.
const LoginPage = lazy(() =>
  import('../features/auth/login-page.tsx').then((m) => ({ default: m.LoginPage })),
);
const DashboardPage = lazy(() =>
  import('../features/dashboard/dashboard-page.tsx').then((m) => ({ default: m.DashboardPage })),
);
const UsersPage = lazy(() =>
  import('../features/users/users-page.tsx').then((m) => ({ default: m.UsersPage })),
);
const ActivityLogPage = lazy(() =>
  import('../features/activity-log/activity-log-page.tsx').then((m) => ({ default: m.ActivityLogPage })),
);
const CustomFieldsPage = lazy(() =>
  import('../features/custom-fields/custom-fields-page.tsx').then((m) => ({ default: m.CustomFieldsPage })),
);
const SystemPage = lazy(() =>
  import('../features/system/system-page.tsx').then((m) => ({ default: m.SystemPage })),
);
const WhatsAppOutboxPage = lazy(() =>
  import('../features/whatsapp-outbox/whatsapp-outbox-page.tsx').then((m) => ({
    default: m.WhatsAppOutboxPage,
  })),
);
const BooksPage = lazy(() =>
  import('../features/books/books-page.tsx').then((m) => ({ default: m.BooksPage })),
);
const ImportPage = lazy(() =>
  import('../features/import/import-page.tsx').then((m) => ({ default: m.ImportPage })),
);
const NotificationsPage = lazy(() =>
  import('../features/notifications/notifications-page.tsx').then((m) => ({ default: m.NotificationsPage })),
);
const ProfilePage = lazy(() =>
  import('../features/profile/profile-page.tsx').then((m) => ({ default: m.ProfilePage })),
);

const screen = (node: ReactNode) => <Suspense fallback={<Spinner label="Loading…" />}>{node}</Suspense>;

/** The route table of spec section 2. */
export function AppRoutes() {
  return (
    <Routes>
      <Route path="/login" element={<RedirectIfSignedIn>{screen(<LoginPage />)}</RedirectIfSignedIn>} />
      <Route
        element={
          <RequireAuth>
            <AppLayout />
          </RequireAuth>
        }
      >
        <Route index element={screen(<DashboardPage />)} />
        <Route path="masters/*" element={<RemoteOutlet remote="masters" base="masters" />} />
        <Route path="transactions/*" element={<RemoteOutlet remote="transactions" base="transactions" />} />
        <Route path="reports/*" element={<RemoteOutlet remote="reports" base="reports" />} />
        <Route path="financials/*" element={<RemoteOutlet remote="reports" base="financials" />} />
        <Route
          path="settings/custom-fields"
          element={<RequireRole roles={['Admin', 'Manager']}>{screen(<CustomFieldsPage />)}</RequireRole>}
        />
        <Route
          path="settings/import"
          element={<RequireRole roles={['Admin', 'Manager']}>{screen(<ImportPage />)}</RequireRole>}
        />
        <Route
          path="settings/users"
          element={<RequireRole roles={['Admin']}>{screen(<UsersPage />)}</RequireRole>}
        />
        <Route
          path="settings/activity-log"
          element={<RequireRole roles={['Admin']}>{screen(<ActivityLogPage />)}</RequireRole>}
        />
        <Route
          path="settings/system"
          element={<RequireRole roles={['Admin']}>{screen(<SystemPage />)}</RequireRole>}
        />
        <Route
          path="settings/books"
          element={<RequireRole roles={['Admin']}>{screen(<BooksPage />)}</RequireRole>}
        />
        <Route
          path="settings/whatsapp-outbox"
          element={<RequireRole roles={['Admin']}>{screen(<WhatsAppOutboxPage />)}</RequireRole>}
        />
        <Route path="profile" element={screen(<ProfilePage />)} />
        <Route path="notifications" element={screen(<NotificationsPage />)} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

export function App() {
  return (
    <ThemeProvider>
      <SnackbarProvider>
        <SessionProvider>
          {/* Above the guards: the License Invalid page listens to the stream too (spec section 2). */}
          <LiveEventsProvider>
            <BrowserRouter>
              <AppRoutes />
            </BrowserRouter>
          </LiveEventsProvider>
        </SessionProvider>
      </SnackbarProvider>
    </ThemeProvider>
  );
}
