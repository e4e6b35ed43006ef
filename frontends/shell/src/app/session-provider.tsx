import {
  api,
  getToken,
  type LicenseInfo,
  onUnauthorized,
  type Session,
  SessionContext,
  setToken,
  USER_KEY,
  type User,
} from '@bahi/ui';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';

export const LICENSE_UNREADABLE = 'Could not retrieve license status.';

/** A failed status fetch counts as an invalid license with a fixed reason (spec section 4). */
export async function fetchLicense(): Promise<LicenseInfo> {
  try {
    return await api.get<LicenseInfo>('/auth/license-status');
  } catch {
    return { isValid: false, reason: LICENSE_UNREADABLE, config: null };
  }
}

const storedUser = (): User | null => {
  try {
    return JSON.parse(localStorage.getItem(USER_KEY) ?? 'null') as User | null;
  } catch {
    return null;
  }
};

/**
 * The session (spec section 4): the token in local storage; with a token the profile and the
 * license are loaded, and a failure there signs out. Any 401 on a call that carried the token
 * signs out too.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<Pick<Session, 'status' | 'user' | 'license'>>(() =>
    getToken()
      ? { status: 'loading', user: storedUser(), license: null }
      : { status: 'signed-out', user: null, license: null },
  );
  const generation = useRef(0);

  const logout = useCallback(() => {
    generation.current++;
    setToken(null);
    localStorage.removeItem(USER_KEY);
    setState({ status: 'signed-out', user: null, license: null });
  }, []);

  const revalidate = useCallback(async () => {
    const mine = ++generation.current;
    try {
      const user = await api.get<User>('/auth/profile');
      const license = await fetchLicense();
      if (mine !== generation.current) return;
      localStorage.setItem(USER_KEY, JSON.stringify(user));
      setState({ status: 'signed-in', user, license });
    } catch {
      if (mine === generation.current) logout();
    }
  }, [logout]);

  const login = useCallback(async (email: string, password: string) => {
    generation.current++;
    try {
      const answer = await api.post<{ token: string; user: User }>('/auth/login', { email, password });
      setToken(answer.token);
      localStorage.setItem(USER_KEY, JSON.stringify(answer.user));
      const license = await fetchLicense();
      setState({ status: 'signed-in', user: answer.user, license });
    } catch (error) {
      setToken(null);
      localStorage.removeItem(USER_KEY);
      setState({ status: 'signed-out', user: null, license: null });
      throw error;
    }
  }, []);

  const retryLicense = useCallback(async () => {
    await api.post('/auth/retry-license-check');
    await revalidate();
  }, [revalidate]);

  useEffect(() => {
    if (getToken()) void revalidate();
    return onUnauthorized(logout);
  }, [revalidate, logout]);

  const value = useMemo<Session>(
    () => ({ ...state, login, logout, revalidate, retryLicense }),
    [state, login, logout, revalidate, retryLicense],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
