/**
 * The fixed types behind the generated route table and handler interface: what a handler of
 * operation K receives and may answer, typed from generated/types.ts, and the shape of one row
 * of generated/routes.ts. Hand-written (and type-checked) so that generated/ holds only what
 * varies with the spec.
 */
import type { Readable } from 'node:stream';
import type { operations, Scope } from '../../generated/types.js';
import type { BearerContext, PanelContext, PublicContext } from './context.js';

export type OperationId = keyof operations;

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH';

/** How an operation authenticates (its security scheme in the spec). */
export type Security = 'bearer' | 'adminSession' | 'none';

/** What a handler knows besides the request, per security scheme: who is calling is never optional. */
export interface ContextOf {
  bearer: BearerContext;
  adminSession: PanelContext;
  none: PublicContext;
}

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

/** A JSON Schema as the route table holds it: documentation dropped, components named by `$ref: 'Name#'`. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** A component schema, registered once (Fastify addSchema, ajv addSchema) under its name. */
export type NamedSchema = JsonSchema & { readonly $id: string };

/** One row of the route table: an operation of the spec, as the server registers it. */
export interface RouteDefinition {
  operationId: OperationId;
  /** The spec file that declares the operation (relative to the repository root). */
  source: string;
  method: HttpMethod;
  /** The path as written in the spec. */
  path: string;
  /** The same path in Fastify's `:param` form. */
  url: string;
  tag: string;
  summary: string;
  /** How the caller authenticates: bearer token, admin session cookie, or not at all. */
  security: Security;
  /** Scopes the caller's token must hold (x-required-scopes); empty means any valid token. */
  requiredScopes: readonly Scope[];
  requestContentType: string | null;
  /** JSON Schemas of the request parts. */
  schema: { body?: JsonSchema; querystring?: JsonSchema; params?: JsonSchema; headers?: JsonSchema };
  /** Documented responses by status code, with the JSON Schema of each body. */
  responses: Readonly<Record<string, { contentType: string | null; schema: JsonSchema | null }>>;
}
