import { describe, expect, it } from 'vitest';
import { routes, schemas } from '../../generated/routes.js';

const find = (operationId: string) => routes.find((r) => r.operationId === operationId)!;
const component = (name: string) => schemas.find((s) => s.$id === name)!;

describe('the generated route table', () => {
  it('keeps fields named like documentation keywords (description, summary, example)', () => {
    const violation = component('Violation') as any;
    expect(Object.keys(violation.properties)).toEqual(['field', 'description']);
  });

  it('drops documentation keywords and extensions from schemas', () => {
    for (const schema of [find('createToken').schema.body, ...schemas]) {
      expect(JSON.stringify(schema)).not.toMatch(/"(example|examples|description|summary)":"|"x-[a-z-]+":/);
    }
  });

  it('registers each component schema once and names it by $ref', () => {
    expect(new Set(schemas.map((s) => s.$id)).size).toBe(schemas.length);
    expect(find('createToken').responses['422']!.schema).toEqual({ $ref: 'Error#' });
    const refs = JSON.stringify(routes).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const ref of refs) expect(schemas.map((s) => `"$ref":"${s.$id}#"`)).toContain(ref);
  });

  it('points each operation at the spec file that declares it', () => {
    expect(find('startSession').source).toBe('spec/paths/session.yaml');
    expect(find('getSession').source).toBe('spec/paths/session_{id}.yaml');
  });

  it('names the scopes each operation needs, from x-required-scopes', () => {
    expect(find('startSession').requiredScopes).toEqual(['session:start']);
    expect(find('getAccount').requiredScopes).toEqual([]);
  });
});
