import http from 'node:http';

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  ms: number;
}

/**
 * One HTTP call on a fresh connection (no keep-alive: a process killed under it fails this call
 * alone), optionally from a given local address (127.0.0.x: another client to nginx).
 */
export function call(
  port: number,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; from?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const started = Date.now();
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolvePromise, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent: false,
        ...(options.from ? { localAddress: options.from } : {}),
        headers: {
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolvePromise({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            ms: Date.now() - started,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export const json = (reply: Reply) => JSON.parse(reply.body) as Record<string, unknown>;
