/**
 * The breaking-change rule on a small fixture spec (one schema, two operations), so each case
 * diffs a few dozen lines. The real spec against the newest release is `npm test`'s own step
 * (`node --import tsx test/conformance/spec-compat.ts`).
 */
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { checkCompatibility } from './spec-compat.js';

const ok = { description: 'OK', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } };

function fixture(change: (spec: any) => void = () => {}): string {
  const spec = {
    openapi: '3.0.3',
    info: { title: 'fixture', version: '1.0.0' },
    paths: {
      '/thing': {
        post: {
          operationId: 'createThing',
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
          responses: { '201': ok },
        },
      },
      '/location': { get: { operationId: 'listLocations', responses: { '200': ok } } },
    },
    components: {
      schemas: {
        Thing: { type: 'object', required: ['id'], properties: { id: { type: 'string' }, version: { type: 'string' } } },
      },
    },
  };
  change(spec);
  return stringify(spec);
}

const released = fixture();

describe('the breaking-change check', () => {
  it('finds an unchanged spec compatible', async () => {
    expect(await checkCompatibility(released, fixture())).toMatchObject({ ok: true, breaking: [] });
  });

  it('catches a removed operation within the same major version', async () => {
    const result = await checkCompatibility(released, fixture((spec) => delete spec.paths['/location']));
    expect(result.ok).toBe(false);
    expect(result.breaking.join('\n')).toContain('path.remove');
  });

  it('catches a request field that became required', async () => {
    const result = await checkCompatibility(released, fixture((spec) => spec.components.schemas.Thing.required.push('version')));
    expect(result.ok).toBe(false);
  });

  it('accepts the same breaking change under a new major version', async () => {
    const next = fixture((spec) => {
      delete spec.paths['/location'];
      spec.info.version = '2.0.0';
    });
    expect((await checkCompatibility(released, next)).ok).toBe(true);
  });

  it('accepts an added operation', async () => {
    const added = fixture((spec) => {
      spec.paths['/location/{id}'] = { get: { ...spec.paths['/location'].get, operationId: 'getLocation' } };
    });
    expect(await checkCompatibility(released, added)).toMatchObject({ ok: true, breaking: [] });
  });
});
