import type { LicenseStatus, UserView } from '@bahi/contracts';
import type { Role } from '@bahi/contracts/roles';
import { createContext, useContext } from 'react';

export { ROLES, type Role } from '@bahi/contracts/roles';

/** The signed-in user (GET /auth/profile): the contract's answer. */
export type User = UserView;

/** GET /auth/license-status (spec section 3, License info): the contract's answer. */
export type LicenseInfo = LicenseStatus;

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
