import type { Role } from '@bahi/contracts/roles';
import { createContext, useContext } from 'react';

export { ROLES, type Role } from '@bahi/contracts/roles';

export interface User {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  role: Role;
  is_active: boolean;
}

/** GET /auth/license-status (spec section 3, License info). */
export interface LicenseInfo {
  isValid: boolean;
  reason: string | null;
  config: {
    status: 'Active' | 'Expired';
    type: string;
    expires_at: string | null;
    grace_period_days: number;
    expiry_notification_days: number;
  } | null;
}

export interface Session {
  /** loading: a stored token is being checked. */
  status: 'loading' | 'signed-out' | 'signed-in';
  user: User | null;
  license: LicenseInfo | null;
  login(email: string, password: string): Promise<void>;
  logout(): void;
  /** Runs a license check on the server, then re-validates profile and license. */
  retryLicense(): Promise<void>;
  /** Re-reads profile and license (after the live stream says the license changed). */
  revalidate(): Promise<void>;
}

export const SessionContext = createContext<Session | null>(null);

/** The signed-in session; remotes read the user's role from here. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession needs the shell’s SessionProvider');
  return session;
}

export const isAdminOrManager = (role: Role | undefined) => role === 'Admin' || role === 'Manager';
