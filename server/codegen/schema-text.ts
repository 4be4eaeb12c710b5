/**
 * JSON Schemas as the route table holds them, and as readable source text: documentation dropped,
 * component schemas named by `$ref: 'Name#'` (each registered once under `$id: Name`).
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Documentation-only keywords: dropped so the generated schemas are small and validator-ready. */
const DOC_KEYWORDS = new Set(['example', 'examples', 'description', 'summary', 'externalDocs']);
/** Keywords whose value maps names to schemas: its keys are field names, not keywords. */
const NAME_MAPS = new Set(['properties', 'patternProperties']);
const SCHEMA_REF = /^#\/components\/schemas\/([^/]+)$/;

/** The name a component schema is registered under, from its spec `$ref`. */
export function schemaRefName(ref: string): string | undefined {
  return SCHEMA_REF.exec(ref)?.[1];
}

/**
 * Drop documentation keywords and extensions (but never a field that happens to be called
 * `description` or `example`) and point component `$ref`s at the registered schema.
 */
export function clean(node: Json, namesOnly = false): Json {
  if (Array.isArray(node)) return node.map((item) => clean(item));
  if (!isObject(node)) return node;
  if (!namesOnly && typeof node.$ref === 'string') {
    const name = schemaRefName(node.$ref);
    if (!name) throw new Error(`a schema may only refer to components.schemas: ${node.$ref}`);
    return { $ref: `${name}#` };
  }
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (!namesOnly && (DOC_KEYWORDS.has(key) || key.startsWith('x-'))) continue;
    out[key] = clean(value, !namesOnly && NAME_MAPS.has(key));
  }
  return out;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const WIDTH = 110;

function keyText(key: string): string {
  return IDENTIFIER.test(key) ? key : JSON.stringify(key);
}

function oneLine(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(oneLine).join(', ')}]`;
  if (!isObject(value)) return JSON.stringify(value);
  const entries = Object.entries(value);
  return entries.length === 0 ? '{}' : `{ ${entries.map(([k, v]) => `${keyText(k)}: ${oneLine(v)}`).join(', ')} }`;
}

/** The entries of an object as `key: value, key: value` on one line (for table rows). */
export function fieldsText(value: JsonObject): string {
  return Object.entries(value).map(([k, v]) => `${keyText(k)}: ${oneLine(v)}`).join(', ');
}

/** Source text of a value starting at `column` of a line indented by `indent`: on one line when it fits, else one line per entry. */
export function sourceText(value: Json, indent = 0, column = indent): string {
  const flat = oneLine(value);
  if (column + flat.length <= WIDTH || (!Array.isArray(value) && !isObject(value))) return flat;
  const pad = ' '.repeat(indent + 2);
  const close = ' '.repeat(indent);
  if (Array.isArray(value)) return `[\n${value.map((v) => `${pad}${sourceText(v, indent + 2)},\n`).join('')}${close}]`;
  const lines = Object.entries(value).map(([k, v]) => `${pad}${keyText(k)}: ${sourceText(v, indent + 2, indent + 4 + keyText(k).length)},\n`);
  return `{\n${lines.join('')}${close}}`;
}
