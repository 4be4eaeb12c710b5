/**
 * generated/errors.ts: the HTTP status of each error code, from the ErrorCode schema's
 * `x-status` in the spec, for the server (server/http/errors.ts) and the client alike.
 */
import { isObject, type JsonObject } from './schema-text.js';

export function buildErrorsModule(document: { components?: JsonObject }): string {
  const schemas = document.components?.schemas;
  const errorCode = isObject(schemas) ? schemas.ErrorCode : undefined;
  if (!isObject(errorCode) || !Array.isArray(errorCode.enum)) throw new Error('components.schemas.ErrorCode must be an enum');
  const statuses = errorCode['x-status'];
  if (!isObject(statuses)) throw new Error('components.schemas.ErrorCode needs x-status: { CODE: status }');
  const codes = errorCode.enum as string[];
  const missing = codes.filter((code) => typeof statuses[code] !== 'number');
  const unknown = Object.keys(statuses).filter((code) => !codes.includes(code));
  if (missing.length > 0 || unknown.length > 0) {
    throw new Error(`ErrorCode x-status must give exactly the enum's codes a status (missing: ${missing.join(', ') || 'none'}; unknown: ${unknown.join(', ') || 'none'})`);
  }
  const lines = codes.map((code) => `  ${code}: ${statuses[code]},\n`).join('');
  return `import type { ErrorCode } from './types.js';

/** The HTTP status of each error code (the ErrorCode schema's x-status). */
export const errorStatus = {
${lines}} as const satisfies Record<ErrorCode, number>;
`;
}
