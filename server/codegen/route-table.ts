/**
 * Turns the bundled OpenAPI document into the source text of generated/routes.ts (the route
 * table the server registers) and generated/handlers.ts (the interface its handlers satisfy).
 * Pure functions of the document, so the output is deterministic and --check can compare it.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export interface OpenApiDocument {
  info: { version: string };
  security?: Json[];
  paths: Record<string, Record<string, JsonObject>>;
  components?: JsonObject;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
/** Documentation-only keywords: dropped so the generated schemas are small and validator-ready. */
const DOC_KEYWORDS = new Set(['example', 'examples', 'description', 'summary', 'externalDocs']);

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function resolvePointer(document: OpenApiDocument, ref: string): Json {
  if (!ref.startsWith('#/')) throw new Error(`only local $refs are expected after bundling: ${ref}`);
  let node: Json = document as unknown as Json;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node) || !(key in node)) throw new Error(`unresolvable $ref ${ref}`);
    node = node[key]!;
  }
  return node;
}

/** Keywords whose value maps names to schemas: its keys are field names, not keywords. */
const NAME_MAPS = new Set(['properties', 'patternProperties']);

/**
 * Inline every $ref (the spec has no cycles) and drop documentation keywords and extensions,
 * but never a field that happens to be called `description` or `example`.
 */
function inline(document: OpenApiDocument, node: Json, seen: string[] = [], namesOnly = false): Json {
  if (Array.isArray(node)) return node.map((item) => inline(document, item, seen));
  if (!isObject(node)) return node;
  if (!namesOnly && typeof node.$ref === 'string') {
    if (seen.includes(node.$ref)) throw new Error(`cyclic $ref ${node.$ref}`);
    return inline(document, resolvePointer(document, node.$ref), [...seen, node.$ref]);
  }
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (!namesOnly && (DOC_KEYWORDS.has(key) || key.startsWith('x-'))) continue;
    out[key] = inline(document, value, seen, !namesOnly && NAME_MAPS.has(key));
  }
  return out;
}

function resolveNode(document: OpenApiDocument, node: Json | undefined): JsonObject | undefined {
  if (!isObject(node)) return undefined;
  if (typeof node.$ref === 'string') return resolveNode(document, resolvePointer(document, node.$ref));
  return node;
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  style?: string;
  schema: JsonObject;
}

/**
 * The query string as one object of its parameters. Parameters in deepObject style
 * (`filter[mode]=ranked`) arrive nested (the server's query parser builds the object), so each
 * is validated against its own schema: its shape, `maxProperties`, `additionalProperties`.
 */
function querySchema(parameters: Parameter[]): JsonObject | undefined {
  const query = parameters.filter((p) => p.in === 'query');
  if (query.length === 0) return undefined;
  const required = query.filter((p) => p.required).map((p) => p.name);
  return {
    type: 'object',
    properties: Object.fromEntries(query.map((p) => [p.name, p.schema])),
    ...(required.length > 0 ? { required } : {}),
  };
}

function partSchema(parameters: Parameter[], where: 'path' | 'header'): JsonObject | undefined {
  const selected = parameters.filter((p) => p.in === where);
  if (selected.length === 0) return undefined;
  // Node lower-cases incoming header names.
  const key = (p: Parameter) => (where === 'header' ? p.name.toLowerCase() : p.name);
  return {
    type: 'object',
    properties: Object.fromEntries(selected.map((p) => [key(p), p.schema])),
    required: selected.filter((p) => p.required).map(key),
  };
}

/** How an operation authenticates: a bearer token, the admin panel's session cookie, or not at all. */
export type Security = 'bearer' | 'adminSession' | 'none';

/** The operation's `security` (or the document's): each must be exactly one known scheme. */
function securityOf(document: OpenApiDocument, operation: JsonObject, operationId: string): Security {
  const requirements = (operation.security ?? document.security ?? []) as Json[];
  if (requirements.length === 0) return 'none';
  const names = requirements.flatMap((r) => (isObject(r) ? Object.keys(r) : []));
  if (names.length !== 1) throw new Error(`${operationId}: expected one security scheme, got ${names.join(', ') || 'none'}`);
  if (names[0] === 'bearerAuth') return 'bearer';
  if (names[0] === 'adminSession') return 'adminSession';
  throw new Error(`${operationId}: unknown security scheme ${names[0]}`);
}

export interface RouteEntry {
  operationId: string;
  method: string;
  path: string;
  url: string;
  tag: string;
  summary: string;
  requiredScopes: string[];
  security: Security;
  requestContentType: string | null;
  schema: JsonObject;
  responses: Record<string, { contentType: string | null; schema: Json | null }>;
}

export function collectRoutes(document: OpenApiDocument): RouteEntry[] {
  const routes: RouteEntry[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    const shared = (item.parameters as unknown as Json[] | undefined) ?? [];
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const operationId = operation.operationId as string;
      const scopes = operation['x-required-scopes'];
      if (!Array.isArray(scopes)) throw new Error(`${operationId} has no x-required-scopes`);

      const ownParameters = (operation.parameters as Json[] | undefined) ?? [];
      const parameters = [...shared, ...ownParameters]
        .map((p) => inline(document, p) as unknown as Parameter);

      const schema: JsonObject = {};
      const requestBody = resolveNode(document, operation.requestBody);
      let requestContentType: string | null = null;
      if (requestBody && isObject(requestBody.content)) {
        const [type, media] = Object.entries(requestBody.content)[0]!;
        requestContentType = type;
        if (isObject(media) && media.schema) schema.body = inline(document, media.schema);
      }
      const querystring = querySchema(parameters);
      if (querystring) schema.querystring = querystring;
      const params = partSchema(parameters, 'path');
      if (params) schema.params = params;
      const headers = partSchema(parameters, 'header');
      if (headers) schema.headers = headers;

      const responses: RouteEntry['responses'] = {};
      for (const [status, raw] of Object.entries(operation.responses as JsonObject)) {
        const response = resolveNode(document, raw);
        const content = response && isObject(response.content) ? Object.entries(response.content)[0] : undefined;
        responses[status] = {
          contentType: content ? content[0] : null,
          schema: content && isObject(content[1]) && content[1].schema ? inline(document, content[1].schema) : null,
        };
      }

      routes.push({
        operationId,
        method: method.toUpperCase(),
        path,
        url: path.replace(/\{([^}]+)\}/g, ':$1'),
        tag: ((operation.tags as string[] | undefined) ?? ['default'])[0]!,
        summary: operation.summary as string,
        requiredScopes: scopes as string[],
        security: securityOf(document, operation, operationId),
        requestContentType,
        schema,
        responses,
      });
    }
  }
  return routes;
}

function scopeValues(document: OpenApiDocument): string[] {
  const scope = resolveNode(document, (document.components?.schemas as JsonObject | undefined)?.Scope);
  if (!scope || !Array.isArray(scope.enum)) throw new Error('components.schemas.Scope must be an enum');
  return scope.enum as string[];
}

export function buildRoutesModule(document: OpenApiDocument): string {
  const routes = collectRoutes(document);
  return `import type { OperationId } from './handlers.js';
import type { components } from './types.js';

export const apiVersion = ${JSON.stringify(document.info.version)};

export type Scope = components['schemas']['Scope'];
/** Every scope a token can hold, in the spec's order. */
export const scopes = ${JSON.stringify(scopeValues(document))} as const satisfies readonly Scope[];

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH';

export interface RouteDefinition {
  operationId: OperationId;
  method: HttpMethod;
  /** The path as written in the spec. */
  path: string;
  /** The same path in Fastify's \`:param\` form. */
  url: string;
  tag: string;
  summary: string;
  /** Scopes the caller's token must hold (x-required-scopes); empty means any valid token. */
  requiredScopes: readonly Scope[];
  /** How the caller authenticates (the operation's security scheme): bearer token, admin session cookie, or none. */
  security: 'bearer' | 'adminSession' | 'none';
  requestContentType: string | null;
  /** JSON Schemas of the request parts, with $refs inlined. */
  schema: { body?: object; querystring?: object; params?: object; headers?: object };
  /** Documented responses by status code, with the JSON Schema of each body. */
  responses: Readonly<Record<string, { contentType: string | null; schema: object | null }>>;
}

export const routes: readonly RouteDefinition[] = ${JSON.stringify(routes, null, 2)};
`;
}

export function buildHandlersModule(document: OpenApiDocument): string {
  const routes = collectRoutes(document);
  const methods = routes
    .map((r) => {
      const scopes =
        r.security === 'adminSession' ? 'admin session' : r.security === 'none' ? 'no authentication' : r.requiredScopes.length > 0 ? r.requiredScopes.join(', ') : 'any valid token';
      return `  /** ${r.method} ${r.path}: ${r.summary} (scopes: ${scopes}) */
  ${r.operationId}(request: OperationRequest<'${r.operationId}'>, context: Context): Promise<OperationResponse<'${r.operationId}'>>;`;
    })
    .join('\n');
  return `import type { Readable } from 'node:stream';
import type { operations } from './types.js';

export type OperationId = keyof operations;

type Present<T> = [NonNullable<T>] extends [never] ? Record<string, never> : NonNullable<T>;
/** Node lower-cases incoming header names; so do the validated headers. */
type LowercaseKeys<T> = { [P in keyof T as Lowercase<P & string>]: T[P] };
type Parameters<K extends OperationId> = operations[K]['parameters'];

/** The validated parts of a request to operation K, typed from the spec. */
export interface OperationRequest<K extends OperationId> {
  params: Present<Parameters<K>['path']>;
  query: Present<Parameters<K>['query']>;
  headers: LowercaseKeys<Present<Parameters<K>['header']>>;
  body: operations[K]['requestBody'] extends { content: { 'application/json': infer B } } ? B : undefined;
}

type ResponseBody<R> = R extends { content: { 'application/json': infer B } }
  ? B
  : R extends { content: Record<string, unknown> }
    ? string | Buffer | Readable
    : undefined;

type Reply<S, B> = [B] extends [undefined]
  ? { status: S; body?: undefined; headers?: Record<string, string> }
  : { status: S; body: B; headers?: Record<string, string> };

/** One of the responses documented for operation K: its status and a body of that status's type. */
export type OperationResponse<K extends OperationId> = {
  [S in keyof operations[K]['responses']]: Reply<S, ResponseBody<operations[K]['responses'][S]>>;
}[keyof operations[K]['responses']];

/** One method per operationId; an implementation missing one does not compile. */
export interface Handlers<Context> {
${methods}
}
`;
}
