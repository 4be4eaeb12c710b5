/**
 * The query string as the spec's parameters describe it: `name=value` pairs, repeated names as
 * arrays, and deepObject keys (`filter[mode]=ranked`) nested under their parameter's name, so
 * each deepObject parameter is validated against its own schema (shape, `maxProperties`,
 * `additionalProperties`). A name given both plainly and bracketed (`filter=abc&filter[a]=b`)
 * keeps both values as an array, which no object schema accepts. Objects have no prototype:
 * `__proto__[x]=1` is just a key.
 */
const BRACKETED = /^([^[\]]+)\[(.*)\]$/;

type Query = Record<string, unknown>;

function add(target: Query, key: string, value: unknown): void {
  if (!Object.hasOwn(target, key)) target[key] = value;
  else if (Array.isArray(target[key])) (target[key] as unknown[]).push(value);
  else target[key] = [target[key], value];
}

function isNested(value: unknown): value is Query {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseQueryString(text: string): Query {
  const query: Query = Object.create(null) as Query;
  // Most requests have no query (the router asks anyway): no URLSearchParams for them.
  if (text === '') return query;
  for (const [key, value] of new URLSearchParams(text)) {
    const match = BRACKETED.exec(key);
    if (!match) {
      add(query, key, value);
      continue;
    }
    const [, name, field] = match as unknown as [string, string, string];
    if (!Object.hasOwn(query, name)) query[name] = Object.create(null) as Query;
    const nested = query[name];
    if (isNested(nested)) add(nested, field, value);
    else add(query, name, value);
  }
  return query;
}
