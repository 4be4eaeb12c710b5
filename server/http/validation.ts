/**
 * Request validation with ajv against the spec's schemas (the route table's, with the component
 * schemas they name registered once). Bodies are validated strictly: unknown fields and wrong types are errors, nothing is coerced or
 * removed. Query strings, path parameters and headers arrive as text, so they are coerced.
 */
import AjvModule, { type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { schemas } from '../../generated/routes.js';
import { echoed, type Violation } from './errors.js';

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

/** What a request's NUL character is refused as (U+0000; JSON writes it `\u0000`, a URL `%00`). */
export const NUL_RULE = 'cannot hold a NUL character (U+0000)';

/**
 * The JSON pointers of the strings and keys in `value` that hold a NUL, in document order. No
 * request string of the spec may hold one: a program's arguments and environment end at it (a
 * value holding one would smuggle in a name), and PostgreSQL's text cannot store it.
 */
function nulPointersIn(value: unknown, pointer = ''): string[] {
  if (typeof value === 'string') return value.includes('\0') ? [pointer] : [];
  if (typeof value !== 'object' || value === null) return [];
  const found: string[] = [];
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) found.push(...nulPointersIn(value[i], `${pointer}/${i}`));
    return found;
  }
  for (const key of Object.keys(value)) {
    const at = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (key.includes('\0')) found.push(at);
    else found.push(...nulPointersIn((value as Record<string, unknown>)[key], at));
  }
  return found;
}

/** Whether any string or key in `value` holds a NUL: the per-request check, allocating nothing. */
function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(holdsNul);
  for (const key in value) {
    if (Object.hasOwn(value, key) && (key.includes('\0') || holdsNul((value as Record<string, unknown>)[key]))) return true;
  }
  return false;
}

type Validate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** The part's schema, and the NUL rule over every string in it (headers cannot carry one: HTTP refuses it). */
export function compileValidator(schema: object, part: HttpPart): Validate {
  const validate = (part === 'body' ? bodyAjv : textAjv).compile(schema);
  if (part === 'headers') return validate;
  const checked: Validate = (data) => {
    const valid = validate(data);
    if (!holdsNul(data)) {
      checked.errors = validate.errors;
      return valid;
    }
    const nulErrors = nulPointersIn(data).map((instancePath) => ({ instancePath, keyword: 'nul', message: NUL_RULE, params: {}, schemaPath: '' }));
    checked.errors = [...nulErrors, ...(validate.errors ?? [])];
    return false;
  };
  return checked;
}

const partName: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/** ajv errors as the spec's violations: `field` names where, `description` what is wrong. */
export function violationsOf(errors: readonly ErrorObject[], part: string): Violation[] {
  const seen = new Set<string>();
  const violations: Violation[] = [];
  for (const error of errors) {
    let field = partName[part] ?? part;
    const path = error.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    // A key is the caller's text, of any length: echoed cut (errors.ts).
    for (const segment of path) field += /^\d+$/.test(segment) ? `[${segment}]` : `.${echoed(segment)}`;
    let description = error.message ?? 'is invalid';
    if (error.keyword === 'required') {
      field += `.${(error.params as { missingProperty: string }).missingProperty}`;
      description = 'is required';
    } else if (error.keyword === 'additionalProperties') {
      field += `.${echoed((error.params as { additionalProperty: string }).additionalProperty)}`;
      description = 'is not a known field';
    } else if (error.keyword === 'type' && part === 'querystring' && path.length === 1 && (error.params as { type: string }).type === 'object') {
      // A deepObject parameter sent flat (`filter=mode:ranked`): ajv's "must be object" does not say how to send it.
      description = `must be sent as ${echoed(path[0]!)}[<key>]=<value>, one per key`;
    } else if (error.keyword === 'enum') {
      // ajv says only "must be equal to one of the allowed values": name them, so a caller who
      // typed `session:write` or `status=run` learns the right word without the spec at hand.
      description = `must be one of: ${(error.params as { allowedValues: unknown[] }).allowedValues.map(String).join(', ')}`;
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
