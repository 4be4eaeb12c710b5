/**
 * Turns the bundled OpenAPI document into the source text of generated/routes.ts (the component
 * schemas, registered once, and the route table the server registers: one row per operation,
 * pointing back at its spec file) and generated/handlers.ts (the interface its handlers satisfy).
 * Pure functions of the documents, so the output is deterministic and --check can compare it.
 * The fixed types both files use live in server/http/operation.ts.
 */
import { clean, fieldsText, isObject, schemaRefName, sourceText, type Json, type JsonObject } from './schema-text.js';

export interface OpenApiDocument {
  info: { version: string };
  security?: Json[];
  paths: Record<string, Record<string, JsonObject>>;
  components?: JsonObject;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

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
    properties: Object.fromEntries(query.map((p) => [p.name, clean(p.schema)])),
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
    properties: Object.fromEntries(selected.map((p) => [key(p), clean(p.schema)])),
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
  source: string;
  method: string;
  path: string;
  url: string;
  tag: string;
  summary: string;
  security: Security;
  requiredScopes: string[];
  requestContentType: string | null;
  schema: JsonObject;
  responses: Record<string, { contentType: string | null; schema: Json | null }>;
}

/**
 * Every operation of the bundled document. `sources` maps each path to the file that declares
 * it (the root document's `paths: { path: { $ref: file } }`, relative to spec/).
 */
export function collectRoutes(document: OpenApiDocument, sources: Record<string, string> = {}): RouteEntry[] {
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
      const parameters = [...shared, ...ownParameters].map((p) => resolveNode(document, p) as unknown as Parameter);

      const schema: JsonObject = {};
      const requestBody = resolveNode(document, operation.requestBody);
      let requestContentType: string | null = null;
      if (requestBody && isObject(requestBody.content)) {
        const [type, media] = Object.entries(requestBody.content)[0]!;
        requestContentType = type;
        if (isObject(media) && media.schema) schema.body = clean(media.schema);
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
          schema: content && isObject(content[1]) && content[1].schema ? clean(content[1].schema) : null,
        };
      }

      routes.push({
        operationId,
        source: sources[path] ? `spec/${sources[path]}` : 'spec/openapi.yaml',
        method: method.toUpperCase(),
        path,
        url: path.replace(/\{([^}]+)\}/g, ':$1'),
        tag: ((operation.tags as string[] | undefined) ?? ['default'])[0]!,
        summary: operation.summary as string,
        security: securityOf(document, operation, operationId),
        requiredScopes: scopes as string[],
        requestContentType,
        schema,
        responses,
      });
    }
  }
  return routes;
}

/** The component schemas, each with its name as `$id`, in the spec's order. */
export function componentSchemas(document: OpenApiDocument): JsonObject[] {
  const schemas = (document.components?.schemas ?? {}) as JsonObject;
  return Object.entries(schemas).map(([name, schema]) => {
    if (!isObject(schema)) throw new Error(`components.schemas.${name} is not a schema`);
    if (typeof schema.$ref === 'string' && schemaRefName(schema.$ref) === undefined) throw new Error(`${name}: unexpected $ref`);
    return { $id: name, ...(clean(schema) as JsonObject) };
  });
}

/** One route as a table row: the identifying fields on the first lines, then its schemas. */
function routeRow(route: RouteEntry): string {
  const { operationId, source, method, path, url, tag, summary, security, requiredScopes, requestContentType } = route;
  const responses = Object.entries(route.responses).map(([status, response]) => `      ${status}: ${sourceText(response as JsonObject, 6, 8 + status.length)},\n`);
  return `  {
    ${fieldsText({ operationId, method, path, url })},
    ${fieldsText({ tag, summary, source })},
    ${fieldsText({ security, requiredScopes, requestContentType })},
    schema: ${sourceText(route.schema, 4, 12)},
    responses: {
${responses.join('')}    },
  },
`;
}

export function buildRoutesModule(document: OpenApiDocument, sources: Record<string, string> = {}): string {
  const routes = collectRoutes(document, sources);
  const schemas = componentSchemas(document).map((schema) => `  ${sourceText(schema, 2)},\n`);
  return `import type { NamedSchema, RouteDefinition } from '../server/http/operation.js';

export const apiVersion = ${JSON.stringify(document.info.version)};

/** The spec's component schemas, registered once each (addSchema) and named by \`$ref: 'Name#'\`. */
export const schemas: readonly NamedSchema[] = [
${schemas.join('')}];

/** One row per operation, in the spec's order, each under a pointer to the file that declares it. */
export const routes: readonly RouteDefinition[] = [
${routes.map(routeRow).join('')}];
`;
}

export function buildHandlersModule(document: OpenApiDocument): string {
  const methods = collectRoutes(document)
    .map((r) => {
      const scopes =
        r.security === 'adminSession' ? 'admin session' : r.security === 'none' ? 'no authentication' : r.requiredScopes.length > 0 ? r.requiredScopes.join(', ') : 'any valid token';
      return `  /** ${r.method} ${r.path}: ${r.summary} (scopes: ${scopes}) */
  ${r.operationId}(request: OperationRequest<'${r.operationId}'>, context: ContextOf['${r.security}']): Promise<OperationResponse<'${r.operationId}'>>;`;
    })
    .join('\n');
  return `import type { ContextOf, OperationRequest, OperationResponse } from '../server/http/operation.js';

export type { OperationId } from '../server/http/operation.js';

/** One method per operationId, its context typed by the operation's security scheme; an implementation missing one does not compile. */
export interface Handlers {
${methods}
}
`;
}
