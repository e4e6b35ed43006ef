import type { FastifyInstance, FastifySchema, FastifyTypeProvider, RouteOptions } from 'fastify';
import { z } from 'zod';

/**
 * Route schemas are zod schemas (the ones in @bahi/contracts the frontends use too): this type
 * provider gives handlers the parsed input's type, the validator compiler below parses with
 * them, and openapi.json is generated from them (issue #19).
 */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown;
}

export interface RouteEntry {
  method: string;
  url: string;
  schema?: FastifySchema;
}

const isZod = (value: unknown): value is z.ZodType => value instanceof z.ZodType;

/**
 * Validation parses with the route's zod schema and hands the handler the parsed value. A
 * refusal is the ZodError itself, so the one error handler answers it exactly as a handler's
 * own `.parse()` did: 400, each issue's message and path. A schema may also throw an HttpError
 * (an id that is no id is a 404, as before), which keeps its status. A missing body is parsed
 * as `undefined`, not the `null` fastify passes, so its message is the one a handler got.
 */
export function installZodCompilers(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) => {
    if (!isZod(schema)) throw new Error(`A ${httpPart} schema must be a zod schema.`);
    const parameters = httpPart === 'querystring' ? queryParameters(schema) : undefined;
    return (data: unknown) => {
      if (parameters) {
        const refused = unknownQueryParameters(data, parameters);
        if (refused) return { error: refused };
      }
      try {
        const result = schema.safeParse(httpPart === 'body' && data === null ? undefined : data);
        return result.success ? { value: result.data } : { error: result.error };
      } catch (error) {
        return { error: error as Error };
      }
    };
  });
  // Response schemas document the contract (openapi.json, the contract test); answers are not
  // checked or reshaped at run time, so serializing costs what fastify's default does.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
}

/** A query string schema's parameters, and whether each takes a list; undefined: it takes any names. */
function queryParameters(schema: z.ZodType): Map<string, boolean> | undefined {
  const object = unwrap(schema, (s) => s instanceof z.ZodObject);
  if (!(object instanceof z.ZodObject)) return undefined;
  const shape = object.shape as Record<string, z.ZodType>;
  return new Map(
    Object.entries(shape).map(([name, field]) => [
      name,
      unwrap(field, (s) => s instanceof z.ZodArray) instanceof z.ZodArray,
    ]),
  );
}

/** The schema inside optional, default, nullable, pipe and the like, down to the first that `is`. */
function unwrap(schema: z.ZodType, is: (s: z.ZodType) => boolean): z.ZodType {
  let current: z.ZodType | undefined = schema;
  for (let depth = 0; current && depth < 20; depth++) {
    if (is(current)) return current;
    const def = current._zod.def as { innerType?: z.ZodType; in?: z.ZodType };
    current = def.innerType ?? def.in;
  }
  return schema;
}

const shown = (name: string) => (name.length > 60 ? `${name.slice(0, 60)}...` : name);

/**
 * A query parameter the route does not know, written as a list or an object (`city_id[]=x`,
 * `a[b]=c`: fastify's parser keeps such names as they are), or given twice where the route takes
 * one value, was left out of the parsed query: the answer was unfiltered, as if no filter had
 * been asked for (issue #27). Each is refused on its name instead.
 */
function unknownQueryParameters(data: unknown, parameters: Map<string, boolean>): z.ZodError | undefined {
  const issues: z.core.$ZodIssue[] = [];
  const names = [...parameters.keys()];
  for (const [name, value] of Object.entries((data ?? {}) as Record<string, unknown>)) {
    const takesList = parameters.get(name);
    if (takesList === undefined) {
      const base = /^([^[\]]*)\[/.exec(name)?.[1];
      const message =
        base !== undefined && parameters.has(base)
          ? `${shown(name)} is not understood: give ${base} once, as ${base}=value`
          : names.length
            ? `${shown(name)} is not a parameter here (it takes ${names.join(', ')})`
            : `${shown(name)} is not a parameter here (it takes none)`;
      issues.push({ code: 'custom', message, path: [name], input: undefined });
    } else if (Array.isArray(value) && !takesList) {
      issues.push({
        code: 'custom',
        message: `${name} is given ${value.length} times: give it once`,
        path: [name],
        input: undefined,
      });
    }
  }
  // ZodRealError: the Error subclass safeParse answers with, which fastify passes on as it is.
  return issues.length ? new z.ZodRealError(issues) : undefined;
}

/** Every route registered on the app, with its schema, for openapi.json and the contract tests. */
export function collectRoutes(app: FastifyInstance): RouteEntry[] {
  const routes: RouteEntry[] = [];
  app.addHook('onRoute', (route: RouteOptions) => {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      routes.push({ method, url: route.url, ...(route.schema ? { schema: route.schema } : {}) });
    }
  });
  return routes;
}

type JsonSchema = Record<string, unknown>;

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
};

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No content',
  400: 'The request is not valid',
  401: 'Not signed in',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Conflict',
  503: 'Not ready',
};

function parameters(schema: unknown, where: 'path' | 'query'): JsonSchema[] {
  if (!isZod(schema)) return [];
  const json = jsonSchema(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
}

function responses(schema: FastifySchema['response']): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const [code, value] of Object.entries((schema ?? {}) as Record<string, unknown>)) {
    const text = STATUS_TEXT[Number(code)] ?? 'Answer';
    if (isZod(value)) {
      out[code] = {
        description: value.description ?? text,
        content: { 'application/json': { schema: jsonSchema(value, 'output') } },
      };
    } else if (value && typeof value === 'object' && 'content' in value) {
      const v = value as { description?: string; content: Record<string, { schema: unknown }> };
      out[code] = {
        description: v.description ?? text,
        content: Object.fromEntries(
          Object.entries(v.content).map(([media, { schema: s }]) => [
            media,
            { schema: isZod(s) ? jsonSchema(s, 'output') : s },
          ]),
        ),
      };
    }
  }
  if (Object.keys(out).length === 0) out.default = { description: 'Answer' };
  return out;
}

const ERROR_BODY = {
  type: 'object',
  required: ['message'],
  properties: {
    message: { type: 'string' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['msg', 'path'],
        properties: { msg: { type: 'string' }, path: { type: 'string' } },
      },
    },
  },
} as const;

/**
 * The OpenAPI 3.1 document of the app's /api routes, from their zod schemas. Routes in
 * `publicPaths` need no token; every other one takes `Authorization: Bearer`. Every client
 * error has the one error body (spec section 8).
 */
export function openApiDocument(
  routes: readonly RouteEntry[],
  options: { title: string; version: string; publicPaths: ReadonlySet<string> },
): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const schema = (route.schema ?? {}) as FastifySchema & {
      summary?: string;
      tags?: string[];
      /** Left out of the document: a catch-all route that only refuses (an unknown master list). */
      hide?: boolean;
      /** The body's media types when it is not JSON (a file upload); JSON when left out. */
      consumes?: string[];
    };
    if (!route.url.startsWith('/api/') || schema.hide) continue;
    const path = route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const body = schema.body;
    const operation: JsonSchema = {
      operationId: `${route.method.toLowerCase()}${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c?: string) => (c ? c.toUpperCase() : ''))}`,
      ...(schema.summary ? { summary: schema.summary } : {}),
      tags: schema.tags ?? [path.split('/')[2] ?? 'api'],
      parameters: [...parameters(schema.params, 'path'), ...parameters(schema.querystring, 'query')],
      ...(isZod(body)
        ? {
            requestBody: {
              required: !body.safeParse(undefined).success,
              content: Object.fromEntries(
                (schema.consumes ?? ['application/json']).map((type) => [
                  type,
                  { schema: jsonSchema(body, 'input') },
                ]),
              ),
            },
          }
        : {}),
      responses: {
        ...responses(schema.response),
        '4XX': {
          description: 'A client error: what is wrong, and where (errors[].path names the field)',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
        },
      },
      ...(options.publicPaths.has(route.url) ? { security: [] } : {}),
    };
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info: { title: options.title, version: options.version },
    paths,
    components: {
      schemas: { ErrorBody: ERROR_BODY },
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    },
    security: [{ bearer: [] }],
  };
}

/**
 * One document of two services' halves (distributed mode: reads on query, writes on command):
 * each path's operations together, the component schemas together. Where both document the
 * same operation (health, readiness, this document), `own`'s stays.
 */
export function mergeOpenApiDocuments(own: JsonSchema, peer: JsonSchema): JsonSchema {
  const paths = (d: JsonSchema) => (d.paths ?? {}) as Record<string, Record<string, JsonSchema>>;
  const components = (d: JsonSchema) => (d.components ?? {}) as Record<string, Record<string, JsonSchema>>;
  const merged: Record<string, Record<string, JsonSchema>> = {};
  for (const [path, operations] of Object.entries(paths(peer))) merged[path] = { ...operations };
  for (const [path, operations] of Object.entries(paths(own)))
    merged[path] = { ...merged[path], ...operations };
  const sorted = Object.fromEntries(Object.entries(merged).sort(([a], [b]) => a.localeCompare(b)));
  return {
    ...own,
    paths: sorted,
    components: {
      ...components(own),
      schemas: { ...components(peer).schemas, ...components(own).schemas },
      securitySchemes: { ...components(peer).securitySchemes, ...components(own).securitySchemes },
    },
  };
}

/** A plain page listing the operations (no script, nothing loaded from elsewhere). */
export function openApiPage(document: JsonSchema): string {
  const html = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const info = document.info as { title: string; version: string };
  const rows: string[] = [];
  for (const [path, operations] of Object.entries(
    document.paths as Record<string, Record<string, JsonSchema>>,
  )) {
    for (const [method, op] of Object.entries(operations)) {
      const params = ((op.parameters ?? []) as Array<{ name: string; in: string; required: boolean }>)
        .map((p) => `${p.name} (${p.in}${p.required ? ', required' : ''})`)
        .join(', ');
      const codes = Object.keys(op.responses as object).join(' ');
      rows.push(
        `<tr><td><code>${method.toUpperCase()}</code></td><td><code>${html(path)}</code></td><td>${html(String(op.summary ?? ''))}</td><td>${html(params)}</td><td>${op.requestBody ? 'JSON' : ''}</td><td>${html(codes)}</td></tr>`,
      );
    }
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${html(info.title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}</style>
</head><body><h1>${html(info.title)} ${html(info.version)}</h1>
<p>The full contract, with every schema: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1).</p>
<table><thead><tr><th>Method</th><th>Path</th><th>What</th><th>Parameters</th><th>Body</th><th>Answers</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table></body></html>`;
}
