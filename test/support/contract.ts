/**
 * Validates real responses against the spec: the status must be documented for the operation,
 * the content type must match, a JSON body must satisfy the schema, and the API-Version header
 * (plus Retry-After on 420, and a Bearer challenge on a bearer operation's 401) must be present. Tests route their HTTP through contractFetch and
 * assert that no violation was recorded.
 */
import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';
import { apiVersion, routes, schemas } from '../../generated/routes.js';
import type { RouteDefinition } from '../../server/http/operation.js';

const Ajv = AjvModule.default;
const addFormats = addFormatsModule.default;
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
for (const schema of schemas) ajv.addSchema(schema);

const matchers = routes.map((route) => ({
  route,
  pattern: new RegExp(`^${route.path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

export function findRoute(method: string, pathname: string): RouteDefinition | undefined {
  return matchers.find((m) => m.route.method === method.toUpperCase() && m.pattern.test(pathname))?.route;
}

const compiled = new Map<object, ReturnType<typeof ajv.compile>>();
function validatorFor(schema: object) {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/** Problems with one response; empty when it keeps the contract. */
export function checkResponse(
  method: string,
  url: string,
  status: number,
  headers: Headers,
  /** The body text; null when it is not JSON and was left unread. */
  body: string | null,
): string[] {
  const { pathname } = new URL(url);
  const route = findRoute(method, pathname);
  const where = `${method} ${pathname} -> ${status}`;
  const problems: string[] = [];
  if (headers.get('api-version') !== apiVersion) problems.push(`${where}: API-Version header is not ${apiVersion}`);
  if (!route) {
    // A path with other methods answers 405 with Allow naming them; an unknown path 404.
    const methods = matchers.filter((m) => m.pattern.test(pathname)).map((m) => m.route.method);
    if (methods.length === 0 && status !== 404) problems.push(`${where}: no such path, yet not 404`);
    if (methods.length > 0) {
      const allow = (headers.get('allow') ?? '').split(', ');
      if (status !== 405) problems.push(`${where}: a method the path lacks, yet not 405`);
      else if (!methods.every((m) => allow.includes(m))) problems.push(`${where}: Allow ${allow.join(', ')} lacks some of ${methods.join(', ')}`);
    }
    return problems;
  }
  const documented = route.responses[String(status)];
  if (!documented) return [...problems, `${where}: status ${status} is not documented for ${route.operationId}`];
  if (status === 420 && !headers.get('retry-after')) problems.push(`${where}: 420 without Retry-After`);
  if (status === 401 && route.security === 'bearer' && !/^Bearer realm=/.test(headers.get('www-authenticate') ?? '')) {
    problems.push(`${where}: 401 without a Bearer challenge in WWW-Authenticate`);
  }
  if (documented.contentType === null) {
    if (body !== null && body !== '') problems.push(`${where}: body where none is documented`);
    return problems;
  }
  const type = headers.get('content-type') ?? '';
  if (!type.startsWith(documented.contentType)) {
    problems.push(`${where}: content-type ${type}, documented ${documented.contentType}`);
    return problems;
  }
  if (documented.contentType === 'application/json' && documented.schema) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body ?? '');
    } catch {
      return [...problems, `${where}: body is not JSON`];
    }
    const validate = validatorFor(documented.schema);
    if (!validate(parsed)) {
      problems.push(`${where}: ${ajv.errorsText(validate.errors)} in ${(body ?? '').slice(0, 500)}`);
    }
  }
  return problems;
}

/** Every (operationId, status) this test process saw, for the coverage table (test/conformance/coverage.mjs). */
export const exercised = new Set<string>();

export interface ContractRecorder {
  fetch: typeof globalThis.fetch;
  violations: string[];
  /** How many responses were checked. */
  checked: number;
}

/** A fetch that checks every response against the spec and records violations. */
export function contractFetch(inner: typeof globalThis.fetch = globalThis.fetch): ContractRecorder {
  const recorder: ContractRecorder = {
    violations: [],
    checked: 0,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const response = await inner(request);
      recorder.checked++;
      // Only JSON bodies are checked against a schema; others (logs, archives) may be endless streams.
      const json = response.headers.get('content-type')?.startsWith('application/json') ?? false;
      const body = json ? await response.clone().text() : null;
      const route = findRoute(request.method, new URL(request.url).pathname);
      if (route) exercised.add(`${route.operationId} ${response.status}`);
      recorder.violations.push(...checkResponse(request.method, request.url, response.status, response.headers, body));
      return response;
    },
  };
  return recorder;
}
