import { type Role, useSession } from '@bahi/ui';
import { Spinner } from '@fluentui/react-components';
import { lazy, type ReactNode, Suspense } from 'react';
import { Navigate, useLocation } from 'react-router';

const LicenseInvalidPage = lazy(() =>
  import('../features/auth/license-invalid-page.tsx').then((m) => ({ default: m.LicenseInvalidPage })),
);

const Checking = () => <Spinner label="Signing in…" style={{ paddingTop: '20vh' }} />;

/** Unauthenticated: /login. Signed in with an invalid license: the License Invalid page. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.status === 'loading') return <Checking />;
  if (session.status === 'signed-out') {
    return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />;
  }
  if (!session.license?.isValid) {
    return (
      <Suspense fallback={<Checking />}>
        <LicenseInvalidPage />
      </Suspense>
    );
  }
  return children;
}

/** A role outside `roles` goes to the dashboard. */
export function RequireRole({ roles, children }: { roles: Role[]; children: ReactNode }) {
  const { user } = useSession();
  if (!user || !roles.includes(user.role)) return <Navigate to="/" replace />;
  return children;
}

/** /login for someone already signed in goes to where they came from, or /. */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.status === 'loading') return <Checking />;
  if (session.status === 'signed-in') {
    const from = (location.state as { from?: string } | null)?.from;
    return <Navigate to={from && from !== '/login' ? from : '/'} replace />;
  }
  return children;
}
