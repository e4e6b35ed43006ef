import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { ZodError } from 'zod';

export interface HttpAppOptions {
  logLevel?: string;
  /** Extra fastify options (tests pass logger: false). */
  fastify?: FastifyServerOptions;
  /** Answers unknown non-/api paths (the standalone serves the frontends' index.html). */
  pageFallback?: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
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

/**
 * A fastify app with the one error handler: validation problems are 400 with each
 * problem and its path, known client errors keep their status and message, anything else
 * is a 500 whose details go to the log, never to the client.
 */
export function createHttpApp(options: HttpAppOptions = {}): FastifyInstance {
  const app = Fastify({
    logger: { level: options.logLevel ?? 'info' },
    bodyLimit: 1_048_576,
    ...options.fastify,
  });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof ZodError) {
      return reply.status(400).send({
        message: 'The request is not valid.',
        errors: error.issues.map((i) => ({ msg: i.message, path: i.path.join('.') })),
      } satisfies ErrorBody);
    }
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send({
        message: error.message,
        ...(error.errors ? { errors: error.errors } : {}),
      } satisfies ErrorBody);
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      // fastify's own client errors: bad JSON, body too large, unsupported media type...
      return reply.status(status).send({ message: (error as Error).message } satisfies ErrorBody);
    }
    request.log.error({ err: error }, 'request failed');
    return reply
      .status(500)
      .send({ message: 'Something went wrong on the server. Please try again.' } satisfies ErrorBody);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const isApi = path === '/api' || path.startsWith('/api/');
    if (!isApi && options.pageFallback && (request.method === 'GET' || request.method === 'HEAD')) {
      return options.pageFallback(request, reply);
    }
    return reply.status(404).send({ message: `No route for ${request.method} ${path}` } satisfies ErrorBody);
  });

  return app;
}
