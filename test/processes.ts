import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface Proc {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  /** Signals the whole process group, as Ctrl+C in a terminal does. */
  signal(signal: NodeJS.Signals): void;
  /** Resolves once no process of the group is left (npm may exit before its child). */
  groupGone(timeoutMs?: number): Promise<void>;
}

/** Runs a command from the repo root in its own process group, collecting its output. */
export function run(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Proc {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, detached: true, stdio: 'pipe' });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    exited,
    signal(signal) {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // already gone
      }
    },
    async groupGone(timeoutMs = 20_000) {
      await waitFor(
        'the process group to exit',
        async () => {
          try {
            process.kill(-child.pid!, 0);
            return undefined;
          } catch {
            return true;
          }
        },
        timeoutMs,
      );
    },
  };
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function getJson(url: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.json().catch(() => undefined) };
}
