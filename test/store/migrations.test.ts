/**
 * One schema history (server/store/migrations.ts) for both stores: the same versions and names,
 * and after migrating, the same tables and columns, each of the same kind and nullability. A table
 * or column written into one store's own field only fails here.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../server/store/migrations.js';
import { openPostgres } from '../../server/store/postgres/database.js';
import { postgresMigrations } from '../../server/store/postgres/migrations.js';
import { createDatabase } from '../support/postgres.mjs';

/** What a column holds, in words both stores' types map onto. */
const KIND: Record<string, string> = {
  INTEGER: 'integer', bigint: 'integer', smallint: 'integer', integer: 'integer',
  TEXT: 'text', text: 'text', BLOB: 'bytes', bytea: 'bytes',
};

/** Columns as `table.column kind [not null]`, sorted, without the migrations' own bookkeeping table. */
const describeColumns = (columns: { table: string; column: string; type: string; notNull: boolean }[]) =>
  columns
    .filter((c) => c.table !== 'schema_migrations')
    .map((c) => `${c.table}.${c.column} ${KIND[c.type] ?? c.type}${c.notNull ? ' not null' : ''}`)
    .sort();

describe('the schema migrations', () => {
  it('have the same versions and names for SQLite and PostgreSQL, numbered 1, 2, 3, ...', () => {
    const history = (list: readonly { version: number; name: string }[]) => list.map(({ version, name }) => ({ version, name }));
    expect(history(postgresMigrations)).toEqual(history(migrations));
    expect(migrations.map((m) => m.version)).toEqual(migrations.map((_m, i) => i + 1));
  });

  it('make the same tables and columns in both stores', async () => {
    const sqlite = new Database(':memory:');
    for (const m of migrations) sqlite.exec(m.sql);
    // SQLite's pruning mark (migration 14) is a sequence in PostgreSQL (migration 9): no table there.
    const ownToSqlite = new Set(['event_log_pruned']);
    const tables = (sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[]).filter(
      (table) => !ownToSqlite.has(table),
    );
    const sqliteColumns = tables.flatMap((table) =>
      (sqlite.pragma(`table_info(${table})`) as { name: string; type: string; notnull: number; pk: number }[]).map((c) => ({
        table,
        column: c.name,
        type: c.type,
        // A primary key column holds no NULL in practice (SQLite allows it for non-integer keys).
        notNull: c.notnull === 1 || c.pk > 0,
      })),
    );
    sqlite.close();

    const postgres = await openPostgres(await createDatabase('migrations'));
    try {
      const postgresColumns = await postgres.sql.rows<{ table: string; column: string; type: string; notNull: boolean }>(
        `SELECT table_name AS "table", column_name AS "column", data_type AS "type", is_nullable = 'NO' AS "notNull"
         FROM information_schema.columns WHERE table_schema = 'public'`,
      );
      expect(describeColumns(postgresColumns)).toEqual(describeColumns(sqliteColumns));
      expect(describeColumns(sqliteColumns).length).toBeGreaterThan(100);
    } finally {
      await postgres.close();
    }
  });
});
