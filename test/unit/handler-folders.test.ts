/**
 * An operationId leads to its handler through the spec's tag: the operation tagged `Players`
 * is implemented in server/http/players/, and nowhere else.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const spec = parse(readFileSync('generated/openapi.yaml', 'utf8')) as {
  paths: Record<string, Record<string, { operationId?: string; tags?: string[] }>>;
};
const operations = Object.values(spec.paths).flatMap((item) =>
  Object.values(item).flatMap((op) => (op.operationId ? [{ id: op.operationId, tag: op.tags?.[0] ?? '' }] : [])),
);
const handlerFiles = readdirSync('server/http', { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('-handlers.ts'))
  .map((file) => ({ file, text: readFileSync(join('server/http', file), 'utf8') }));

describe('handler folders', () => {
  it('put each operation in the folder of its tag, and only there', () => {
    const misplaced = operations.flatMap(({ id, tag }) => {
      const where = handlerFiles.filter(({ text }) => new RegExp(`^    async ${id}\\(`, 'm').test(text)).map(({ file }) => file);
      const folder = `${tag.toLowerCase()}/`;
      return where.length === 1 && where[0]!.startsWith(folder) ? [] : [`${id} (${tag}): ${where.join(', ') || 'no handler file'}`];
    });
    expect(operations.length).toBeGreaterThan(40);
    expect(misplaced).toEqual([]);
  });
});
