import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { checkCompatibility, newestReleased } from './spec-compat.js';

const current = readFileSync('generated/openapi.yaml', 'utf8');
const edit = (change: (spec: any) => void) => {
  const spec = parse(current);
  change(spec);
  return stringify(spec);
};

describe('the breaking-change check', () => {
  it('finds the current spec compatible with the newest release', async () => {
    const result = await checkCompatibility(readFileSync(newestReleased(), 'utf8'), current);
    expect(result).toMatchObject({ ok: true, breaking: [] });
  });

  it('catches a removed operation within the same major version', async () => {
    const broken = edit((spec) => delete spec.paths['/location']);
    const result = await checkCompatibility(current, broken);
    expect(result.ok).toBe(false);
    expect(result.breaking.join('\n')).toContain('path.remove');
  });

  it('catches a request field that became required', async () => {
    const broken = edit((spec) => spec.components.schemas.SessionStartRequest.required.push('version'));
    const result = await checkCompatibility(current, broken);
    expect(result.ok).toBe(false);
  });

  it('accepts the same breaking change under a new major version', async () => {
    const next = edit((spec) => {
      delete spec.paths['/location'];
      spec.info.version = '2.0.0';
    });
    expect((await checkCompatibility(current, next)).ok).toBe(true);
  });

  it('accepts an added operation', async () => {
    const added = edit((spec) => {
      spec.paths['/location/{id}'] = { get: { ...spec.paths['/location'].get, operationId: 'getLocation' } };
    });
    expect(await checkCompatibility(current, added)).toMatchObject({ ok: true, breaking: [] });
  });
});
