/**
 * Request validation with ajv against the spec's schemas (the route table's, with the component
 * schemas they name registered once). Bodies are validated strictly: unknown fields and wrong types are errors, nothing is coerced or
 * removed. Query strings, path parameters and headers arrive as text, so they are coerced.
 */
import AjvModule, { type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { schemas } from '../../generated/routes.js';
import type { Violation } from './errors.js';

// ajv and ajv-formats are CommonJS; their default export is the module object under NodeNext.
const Ajv = AjvModule.default;
const addFormats = addFormatsModule.default;

function createAjv(coerceTypes: boolean | 'array') {
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes,
    useDefaults: true,
    removeAdditional: false,
    strict: false,
    messages: true,
    // Gives errors their parentSchema, whose `title` words a pattern for people.
    verbose: true,
  });
  addFormats(ajv);
  return ajv;
}

const bodyAjv = createAjv(false);
const textAjv = createAjv('array');
for (const schema of schemas) {
  bodyAjv.addSchema(schema);
  textAjv.addSchema(schema);
}

export type HttpPart = 'body' | 'querystring' | 'params' | 'headers';

export function compileValidator(schema: object, part: HttpPart) {
  return (part === 'body' ? bodyAjv : textAjv).compile(schema);
}

const partName: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/** ajv errors as the spec's violations: `field` names where, `description` what is wrong. */
export function violationsOf(errors: readonly ErrorObject[], part: string): Violation[] {
  const seen = new Set<string>();
  const violations: Violation[] = [];
  for (const error of errors) {
    let field = partName[part] ?? part;
    const path = error.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    for (const segment of path) field += /^\d+$/.test(segment) ? `[${segment}]` : `.${segment}`;
    let description = error.message ?? 'is invalid';
    if (error.keyword === 'required') {
      field += `.${(error.params as { missingProperty: string }).missingProperty}`;
      description = 'is required';
    } else if (error.keyword === 'additionalProperties') {
      field += `.${(error.params as { additionalProperty: string }).additionalProperty}`;
      description = 'is not a known field';
    } else if (error.keyword === 'pattern' && typeof error.parentSchema?.title === 'string') {
      description = `must be ${error.parentSchema.title}`;
    }
    const key = `${field}\n${description}`;
    if (seen.has(key)) continue;
    seen.add(key);
    violations.push({ field, description });
  }
  return violations;
}
