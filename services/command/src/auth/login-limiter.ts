/**
 * Sign-in attempts per account and per address in a sliding window: past the limit, further
 * attempts are refused without checking the password. An attempt is counted *before* its
 * password is checked (`attempt`), so a burst of parallel guesses cannot all slip past the
 * count while the slow argon2 checks run: at most `perAccount` passwords of one account are
 * ever being checked or failed in a window. A success takes its attempt back and clears the
 * account's count. Per process; with several command replicas each keeps its own count (the
 * limit then multiplies by the replicas).
 */
export function createLoginLimiter(options: {
  windowMs?: number;
  perAccount?: number;
  perAddress?: number;
  now?: () => number;
}) {
  const windowMs = options.windowMs ?? 15 * 60_000;
  const perAccount = options.perAccount ?? 5;
  const perAddress = options.perAddress ?? 30;
  const now = options.now ?? Date.now;
  const attempts = new Map<string, number[]>();

  const recent = (key: string) => {
    const cutoff = now() - windowMs;
    const list = (attempts.get(key) ?? []).filter((t) => t > cutoff);
    if (list.length === 0) attempts.delete(key);
    else attempts.set(key, list);
    return list;
  };
  const keys = (account: string, address: string): Array<[string, number]> => [
    [`a:${account}`, perAccount],
    [`ip:${address}`, perAddress],
  ];

  const limiter = {
    /** Milliseconds to wait before another attempt, or 0 when one is allowed now. */
    retryAfterMs(account: string, address: string): number {
      let wait = 0;
      for (const [key, limit] of keys(account, address)) {
        const list = recent(key);
        if (list.length >= limit) wait = Math.max(wait, list[list.length - limit]! + windowMs - now());
      }
      return wait;
    },
    /**
     * Counts an attempt and answers 0 when it may go on to check the password; otherwise the
     * milliseconds to wait, and nothing is counted. Synchronous: no other request can count
     * between the check and the count.
     */
    attempt(account: string, address: string): number {
      const wait = limiter.retryAfterMs(account, address);
      if (wait > 0) return wait;
      for (const [key] of keys(account, address)) attempts.set(key, [...recent(key), now()]);
      return 0;
    },
    /** A failure not counted by `attempt` (kept for callers that check first and count after). */
    failed(account: string, address: string) {
      for (const [key] of keys(account, address)) attempts.set(key, [...recent(key), now()]);
    },
    /** The password was right: the account's count is cleared and the address's attempt taken back. */
    succeeded(account: string, address?: string) {
      attempts.delete(`a:${account}`);
      if (address === undefined) return;
      const list = recent(`ip:${address}`);
      list.pop();
      if (list.length === 0) attempts.delete(`ip:${address}`);
    },
  };
  return limiter;
}

export type LoginLimiter = ReturnType<typeof createLoginLimiter>;
