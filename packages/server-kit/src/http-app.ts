import { ProjectionBehindError } from '@bahi/read-db';
import Fastify, {
  errorCodes,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { ZodError, z } from 'zod';
import { InvalidTokenError } from './auth/tokens.ts';
import {
  collectRoutes,
  installZodCompilers,
  mergeOpenApiDocuments,
  openApiDocument,
  openApiPage,
  type RouteEntry,
  type ZodTypeProvider,
} from './contract.ts';

export interface HttpAppOptions {
  logLevel?: string;
  /**
   * Proxies whose X-Forwarded-For gives `request.ip` (BAHI_TRUSTED_PROXIES): the client's
   * address as the gateway saw it, not the gateway's. Addresses a client writes into the
   * header itself are ignored: only the entry the trusted gateway appended counts.
   */
  trustedProxies?: string[] | undefined;
  /** Extra fastify options (tests pass logger: false). */
  fastify?: FastifyServerOptions;
  /**
   * The service holding the other half of the API (BAHI_CONTRACT_PEER_URL; distributed mode:
   * query names command). GET /api/openapi.json and /api/docs then show the whole API, this
   * service's operations and the peer's, read from the peer's `/api/openapi.json?part=own`.
   */
  contractPeer?: string | undefined;
  /** Answers unknown non-/api paths (the standalone serves the frontends' index.html). */
  pageFallback?: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
}

const NO_QUERY_PARAMETERS = z.object({});

/** Only a text with one of these can hold such a key (`\\u` for a key written with escapes). */
const MAY_HOLD_PROTOTYPE_KEY = /__proto__|constructor|\\u/;

/**
 * The first key of a parsed body that could reach an object's prototype: `__proto__`, or a
 * `constructor` holding a `prototype` (what fastify's parser refused), with its path. Walked
 * without recursion: bodies nest thousands of levels deep within the size limit.
 */
function prototypeKey(value: unknown): { msg: string; path: string } | undefined {
  interface Step {
    value: unknown;
    key: string;
    parent: Step | undefined;
  }
  const pathOf = (step: Step) => {
    const keys: string[] = [];
    for (let s: Step | undefined = step; s?.parent; s = s.parent) keys.push(s.key);
    return keys.reverse().join('.');
  };
  const stack: Step[] = [{ value, key: '', parent: undefined }];
  for (let step = stack.pop(); step; step = stack.pop()) {
    if (typeof step.value !== 'object' || step.value === null) continue;
    for (const [key, child] of Object.entries(step.value)) {
      const here: Step = { value: child, key, parent: step };
      if (key === '__proto__') return { msg: '"__proto__" is not allowed as a key', path: pathOf(here) };
      if (
        key === 'constructor' &&
        typeof child === 'object' &&
        child !== null &&
        Object.hasOwn(child, 'prototype')
      )
        return { msg: '"constructor" holding "prototype" is not allowed', path: pathOf(here) };
      stack.push(here);
    }
  }
  return undefined;
}

const MAX_LISTED_ERRORS = 20;
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}...` : text);

/**
 * An error answer of a few kB whatever the input: at most the first 20 problems, each message
 * and path clipped (a path can carry a name from the request, a message a list of options), and
 * the message says how many there were. One problem per bad name of a 1 MB body was a 6.9 MB
 * answer (issue #27); the first ones still name their fields for the form.
 */
function bounded(
  message: string,
  count: number,
  first: (n: number) => Array<{ msg: string; path: string }>,
): ErrorBody {
  const text = clip(message, 500);
  if (count === 0) return { message: text };
  return {
    message:
      count > MAX_LISTED_ERRORS
        ? `${text} There are ${count.toLocaleString('en-US')} problems; the first ${MAX_LISTED_ERRORS} are listed.`
        : text,
    errors: first(MAX_LISTED_ERRORS).map((e) => ({ msg: clip(e.msg, 300), path: clip(e.path, 200) })),
  };
}

/** The error body every client error has: what the UI shows (spec section 8). */
export interface ErrorBody {
  message: string;
  errors?: Array<{ msg: string; path: string }>;
}

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: ErrorBody['errors'],
  ) {
    super(message);
  }
}

/** Turns an error a layer below HTTP knows (a domain refusal) into the client error it means. */
export type ErrorMapping = (error: unknown) => HttpError | undefined;

/** The API contract: public on every service (it names no data), and served without a license. */
export const CONTRACT_PATHS: ReadonlySet<string> = new Set(['/api/openapi.json', '/api/docs']);

interface AppContract {
  mappings: ErrorMapping[];
  routes: RouteEntry[];
  publicPaths: Set<string>;
}
const contracts = new WeakMap<FastifyInstance, AppContract>();

function contractOf(app: FastifyInstance): AppContract {
  const contract = contracts.get(app);
  if (!contract) throw new Error('This app was not made by createHttpApp.');
  return contract;
}

/**
 * Adds a mapping to the app's one error handler: the command side registers its domain
 * refusals here, so no route catches an error to translate it.
 */
export function registerErrorMapping(app: FastifyInstance, mapping: ErrorMapping): void {
  contractOf(app).mappings.push(mapping);
}

/** Paths that need no token, as openapi.json tells (registerAuthentication records them). */
export function recordPublicPaths(app: FastifyInstance, paths: Iterable<string>): void {
  const contract = contracts.get(app);
  if (contract) for (const path of paths) contract.publicPaths.add(path);
}

/** Every route registered on the app so far, with its schema (for the contract tests). */
export function registeredRoutes(app: FastifyInstance): readonly RouteEntry[] {
  return contractOf(app).routes;
}

/** A session token that does not verify (expired, forged, wrong audience): not signed in. */
const invalidToken: ErrorMapping = (error) =>
  error instanceof InvalidTokenError ? new HttpError(401, error.message) : undefined;

/** A read model that is behind or stopped: the client may try again shortly. */
const projectionBehind: ErrorMapping = (error) =>
  error instanceof ProjectionBehindError
    ? new HttpError(503, `${error.message} Please try again in a moment.`)
    : undefined;

/**
 * The Content-Security-Policy the built frontends run under: scripts only from this origin
 * (the shell and the module-federation remotes are served from it, remotes load by script
 * tag), styles also inline (Fluent's griffel injects <style> tags), images and fonts also as
 * data: and blob: URLs, requests only to this origin (the API and its event stream), and no
 * framing by anyone. The nginx gateway sends the same for the files it serves
 * (deploy/gateway/bahi.conf.template).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

/**
 * The peer's half of the contract, read when first asked for and kept for a minute (copies of
 * the peer answer the same document; a new release is picked up within the minute).
 */
function contractPeer(baseUrl: string) {
  let kept: { document: Record<string, unknown>; until: number } | undefined;
  return {
    async document(): Promise<Record<string, unknown>> {
      if (kept && kept.until > Date.now()) return kept.document;
      const url = new URL('/api/openapi.json?part=own', baseUrl);
      const res = await fetch(url, { signal: AbortSignal.timeout(3000) });
      if (!res.ok) throw new Error(`${url} answered ${res.status}`);
      const document = (await res.json()) as Record<string, unknown>;
      if (typeof document.paths !== 'object' || document.paths === null)
        throw new Error(`${url} is not an OpenAPI document`);
      kept = { document, until: Date.now() + 60_000 };
      return document;
    },
  };
}

/** Requests whose handler has not answered yet, per app (see closeApp). */
const running = new WeakMap<FastifyInstance, { requests: Set<object>; idle?: () => void }>();

function trackHandlers(app: FastifyInstance) {
  const state: { requests: Set<object>; idle?: () => void } = { requests: new Set() };
  running.set(app, state);
  const done = (request: object) => {
    state.requests.delete(request);
    if (state.requests.size === 0) state.idle?.();
  };
  app.addHook('onRequest', async (request) => void state.requests.add(request));
  // The handler has answered (or failed) once its reply is being sent, whether or not the client
  // is still there to read it; onResponse covers a request refused before any handler.
  app.addHook('onSend', async (request, _reply, payload) => {
    done(request);
    return payload;
  });
  app.addHook('onResponse', async (request) => done(request));
}

/**
 * Stops the app as a clean shutdown must (issue #26): no new requests, and every handler that
 * is running finishes before the caller closes the storage under it - fastify's close waits for
 * open connections only, so a request whose client went away (a load generator stopping, a
 * browser tab closed) still ran on after it and met a destroyed database. Waits at most
 * `waitMs` for such handlers.
 */
export async function closeApp(app: FastifyInstance, waitMs = 5000): Promise<void> {
  await app.close();
  const state = running.get(app);
  if (!state || state.requests.size === 0) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, waitMs);
    state.idle = () => {
      clearTimeout(timer);
      resolve();
    };
  });
}

/**
 * The one error handler: each mapping turns a known error into a client error first; zod
 * problems are a 400 with each problem's path; an HttpError keeps its status; anything else is
 * a 500 whose details go to the log, never to the client.
 */
function answerErrors(contract: AppContract) {
  return (raw: unknown, request: FastifyRequest, reply: FastifyReply) => {
    let error: unknown = raw;
    for (const mapping of contract.mappings) {
      const mapped = mapping(raw);
      if (mapped) {
        error = mapped;
        break;
      }
    }
    if (error instanceof ZodError) {
      const { issues } = error;
      return reply
        .status(400)
        .send(
          bounded('The request is not valid.', issues.length, (n) =>
            issues.slice(0, n).map((i) => ({ msg: i.message, path: i.path.join('.') })),
          ),
        );
    }
    if (error instanceof HttpError) {
      const { errors } = error;
      return reply
        .status(error.statusCode)
        .send(
          errors
            ? bounded(error.message, errors.length, (n) => errors.slice(0, n))
            : bounded(error.message, 0, () => []),
        );
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      // fastify's own client errors: bad JSON, body too large, unsupported media type...
      return reply.status(status).send(bounded((error as Error).message, 0, () => []));
    }
    request.log.error({ err: error }, 'request failed');
    return reply
      .status(500)
      .send({ message: 'Something went wrong on the server. Please try again.' } satisfies ErrorBody);
  };
}

/**
 * A fastify app with the one error handler: validation problems are 400 with each
 * problem and its path, known client errors keep their status and message, anything else
 * is a 500 whose details go to the log, never to the client.
 */
export function createHttpApp(options: HttpAppOptions = {}): FastifyInstance {
  const app = Fastify({
    logger: { level: options.logLevel ?? 'info' },
    bodyLimit: 1_048_576,
    ...(options.trustedProxies?.length ? { trustProxy: options.trustedProxies } : {}),
    ...options.fastify,
  });
  const contract: AppContract = {
    mappings: [projectionBehind, invalidToken],
    routes: collectRoutes(app),
    publicPaths: new Set(CONTRACT_PATHS),
  };
  contracts.set(app, contract);
  trackHandlers(app);
  installZodCompilers(app);
  // An /api route that declares no query parameters takes none: `?city_id=x` on it is a 400 on
  // city_id, not an answer that looks filtered and is not (issue #27). Added after collectRoutes,
  // so openapi.json shows what the route declared.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/') && !route.schema?.querystring)
      route.schema = { ...route.schema, querystring: NO_QUERY_PARAMETERS };
  });

  // JSON bodies. Fastify's own parser refuses `__proto__` (and `constructor.prototype`) keys, but
  // answers "Body is not valid JSON", which misleads for valid JSON. JSON.parse keeps such a key
  // as an ordinary own property (it sets no prototype); the body is then refused on that key by
  // name before anything reads it, as a later Object.assign or deep merge could still pollute.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text.length === 0) return done(new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY(), undefined);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return done(new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY(), undefined);
    }
    const refused = MAY_HOLD_PROTOTYPE_KEY.test(text) ? prototypeKey(value) : undefined;
    if (refused) return done(new HttpError(400, 'The request is not valid.', [refused]), undefined);
    done(null, value);
  });

  // Security headers on every answer (issue #16); /api answers are never cached.
  app.addHook('onSend', async (request, reply, payload) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS))
      if (!reply.hasHeader(name)) reply.header(name, value);
    const path = request.url.split('?')[0] ?? '/';
    if (path === '/api' || path.startsWith('/api/')) reply.header('Cache-Control', 'no-store');
    return payload;
  });

  app.setErrorHandler(answerErrors(contract));

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const isApi = path === '/api' || path.startsWith('/api/');
    if (!isApi && options.pageFallback && (request.method === 'GET' || request.method === 'HEAD')) {
      return options.pageFallback(request, reply);
    }
    return reply.status(404).send({ message: `No route for ${request.method} ${path}` } satisfies ErrorBody);
  });

  // The contract of this app's routes, built once every route is registered (issue #19).
  let document: Record<string, unknown> | undefined;
  const ownDocument = () => {
    document ??= openApiDocument(contract.routes, {
      title: 'Bahi API',
      version: '0.1.0',
      publicPaths: contract.publicPaths,
    });
    return document;
  };
  const peer = options.contractPeer ? contractPeer(options.contractPeer) : undefined;
  /** The whole API: this service's half, and the peer's when there is one (merged once per read of it). */
  let merged: { peer: Record<string, unknown>; document: Record<string, unknown> } | undefined;
  const contractDocument = async () => {
    const own = ownDocument();
    if (!peer) return own;
    const other = await peer.document().catch((error: unknown) => {
      app.log.warn({ err: error }, 'the API contract: the peer service could not be read');
      throw new HttpError(
        503,
        "The API contract is served in two halves, and the other service's half cannot be read right now. Please try again.",
      );
    });
    if (merged?.peer !== other) merged = { peer: other, document: mergeOpenApiDocuments(own, other) };
    return merged.document;
  };
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/openapi.json',
    {
      schema: {
        summary: 'This API as an OpenAPI 3.1 document',
        tags: ['contract'],
        querystring: z.object({
          part: z
            .enum(['own'], { error: 'part is own, or left out for the whole API' })
            .optional()
            .describe("own: only this service's operations (distributed mode); left out: the whole API"),
        }),
        response: { 200: z.record(z.string(), z.unknown()) },
      },
    },
    async (request) => (request.query.part === 'own' ? ownDocument() : contractDocument()),
  );
  app.get(
    '/api/docs',
    {
      schema: {
        summary: 'A page listing every operation of this API',
        tags: ['contract'],
        response: { 200: { description: 'HTML', content: { 'text/html': { schema: z.string() } } } },
      },
    },
    async (_request, reply) =>
      reply.type('text/html; charset=utf-8').send(openApiPage(await contractDocument())),
  );

  return app;
}
