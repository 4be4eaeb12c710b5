/** One schema history, expressed for both stores: a migration added to one and not the other fails here. */
import { describe, expect, it } from 'vitest';
import { migrations } from '../../server/store/migrations.js';
import { postgresMigrations } from '../../server/store/postgres/migrations.js';

describe('the schema migrations', () => {
  it('have the same versions and names for SQLite and PostgreSQL, numbered 1, 2, 3, ...', () => {
    const history = (list: readonly { version: number; name: string }[]) => list.map(({ version, name }) => ({ version, name }));
    expect(history(postgresMigrations)).toEqual(history(migrations));
    expect(migrations.map((m) => m.version)).toEqual(migrations.map((_m, i) => i + 1));
  });
});
