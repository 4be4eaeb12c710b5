import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { errorStatus } from '../../generated/errors.js';
import { routes } from '../../generated/routes.js';
import { errorStatus as clientErrorStatus } from '../../client/errors.js';
import { statusOf } from '../../server/http/errors.js';

const errorCode = parse(readFileSync('spec/components/schemas/ErrorCode.yaml', 'utf8'));

describe('the error map (ErrorCode x-status in the spec)', () => {
  it('is the one the server answers with and the client knows', () => {
    expect(statusOf).toBe(errorStatus);
    expect(clientErrorStatus).toBe(errorStatus);
  });

  it('agrees with the prose of the ErrorCode description, code by code', () => {
    const prose = Object.fromEntries([...(errorCode.description as string).matchAll(/`([A-Z_]+)` (\d{3})/g)].map((m) => [m[1], Number(m[2])]));
    expect(prose).toEqual(errorStatus);
  });

  it('has a code for every error status an operation documents with the Error body', () => {
    const statuses = new Set<number>(Object.values(errorStatus));
    // GET /readyz's 503 is no error of the caller's: its body is the Readiness, not an Error.
    const isErrorBody = (schema: unknown) => (schema as { $ref?: string } | null)?.$ref === 'Error#';
    for (const route of routes) {
      for (const status of Object.keys(route.responses).map(Number).filter((s) => s >= 400 && isErrorBody(route.responses[s]!.schema))) {
        expect(statuses.has(status), `${route.operationId} documents ${status}`).toBe(true);
      }
    }
  });
});
