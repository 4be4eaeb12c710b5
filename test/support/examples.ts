/** Valid requests for every operation, built from the spec's own examples. */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { routes } from '../../generated/routes.js';
import type { RouteDefinition } from '../../server/http/operation.js';

const spec = parse(readFileSync('generated/openapi.yaml', 'utf8'));

function resolve(node: any): any {
  while (node && typeof node.$ref === 'string') {
    node = node.$ref
      .slice(2)
      .split('/')
      .reduce((at: any, key: string) => at[key.replace(/~1/g, '/').replace(/~0/g, '~')], spec);
  }
  return node;
}

export interface ExampleRequest {
  route: RouteDefinition;
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

export function exampleRequest(route: RouteDefinition): ExampleRequest {
  const item = spec.paths[route.path];
  const operation = item[route.method.toLowerCase()];
  const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map(resolve);
  let path = route.path;
  const query: Record<string, string> = {};
  for (const p of parameters) {
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(String(p.example)));
    if (p.in === 'query' && p.required) query[p.name] = String(p.example);
  }
  let body: unknown;
  const media = operation.requestBody && resolve(operation.requestBody).content['application/json'];
  if (media) body = resolve(Object.values(media.examples as Record<string, unknown>)[0]).value;
  return { route, method: route.method, path, query, body };
}

export const exampleRequests = routes.map(exampleRequest);

export function urlOf(base: string, request: Pick<ExampleRequest, 'path' | 'query'>): string {
  const search = new URLSearchParams(request.query).toString();
  return `${base}${request.path}${search ? `?${search}` : ''}`;
}
