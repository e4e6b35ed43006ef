/**
 * Failed sign-ins per account and per address in a sliding window: past the limit, further
 * attempts are refused without checking the password. Per process; with several command
 * replicas each keeps its own count (the limit then multiplies by the replicas).
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
  const failures = new Map<string, number[]>();

  const recent = (key: string) => {
    const cutoff = now() - windowMs;
    const list = (failures.get(key) ?? []).filter((t) => t > cutoff);
    if (list.length === 0) failures.delete(key);
    else failures.set(key, list);
    return list;
  };

  return {
    /** Milliseconds to wait before another attempt, or 0 when one is allowed now. */
    retryAfterMs(account: string, address: string): number {
      const keys: Array<[string, number]> = [
        [`a:${account}`, perAccount],
        [`ip:${address}`, perAddress],
      ];
      let wait = 0;
      for (const [key, limit] of keys) {
        const list = recent(key);
        if (list.length >= limit) wait = Math.max(wait, list[list.length - limit]! + windowMs - now());
      }
      return wait;
    },
    failed(account: string, address: string) {
      for (const key of [`a:${account}`, `ip:${address}`]) failures.set(key, [...recent(key), now()]);
    },
    succeeded(account: string) {
      failures.delete(`a:${account}`);
    },
  };
}

export type LoginLimiter = ReturnType<typeof createLoginLimiter>;
