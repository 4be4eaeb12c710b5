import { describe, expect, it } from 'vitest';
import { routes } from '../../generated/routes.js';

const find = (operationId: string) => routes.find((r) => r.operationId === operationId)!;

describe('the generated route table', () => {
  it('keeps fields named like documentation keywords (description, summary, example)', () => {
    const error = find('createToken').responses['422']!.schema as any;
    expect(Object.keys(error.properties.violations.items.properties)).toEqual(['field', 'description']);
  });

  it('drops documentation keywords and extensions from schemas', () => {
    const body = find('createToken').schema.body as any;
    expect(JSON.stringify(body)).not.toMatch(/"(example|description|x-[a-z-]+)":/);
  });

  it('names the scopes each operation needs, from x-required-scopes', () => {
    expect(find('startSession').requiredScopes).toEqual(['session:start']);
    expect(find('getAccount').requiredScopes).toEqual([]);
  });
});
