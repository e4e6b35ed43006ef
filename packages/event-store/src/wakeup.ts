/**
 * A counter that subscribers wait on. Waiting with the count seen before a read means a
 * signal that arrives between the read and the wait is never lost.
 */
export class Wakeup {
  #count = 0;
  #waiters = new Set<() => void>();

  get count(): number {
    return this.#count;
  }

  signal(): void {
    this.#count++;
    for (const resolve of this.#waiters) resolve();
    this.#waiters.clear();
  }

  /** Resolves when signalled after `seen`, after `timeoutMs`, or on abort. */
  wait(seen: number, timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (this.#count !== seen || signal?.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.#waiters.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}
