import type { ImageTagStore } from '../domain/ports/catalog.js';
import type { Db } from './sqlite.js';
import type { Sync } from './async.js';

/** Of an account's tags of an image ($1, $2), all but the $3 newest go (SQLite and PostgreSQL alike). */
export const TRIM_SQL = `DELETE FROM image_tags WHERE account_id = $1 AND image = $2 AND tag NOT IN
  (SELECT tag FROM image_tags WHERE account_id = $1 AND image = $2 ORDER BY registered DESC, tag DESC LIMIT $3)`;

export function createImageTagRepository(db: Db): Sync<ImageTagStore> {
  const has = db.prepare('SELECT 1 FROM image_tags WHERE account_id = ? AND image = ? AND tag = ?').pluck();
  const register = db.prepare(
    'INSERT OR IGNORE INTO image_tags (account_id, image, tag, registered) VALUES (?, ?, ?, ?)',
  );
  const trim = db.prepare(TRIM_SQL.replace(/\$(\d)/g, (_all, n: string) => ['@account', '@image', '@keep'][Number(n) - 1]!));
  const all = db.prepare('SELECT account_id AS accountId, image, tag, registered FROM image_tags ORDER BY image, registered');
  return {
    all: () => all.all() as Awaited<ReturnType<ImageTagStore['all']>>,
    has: (accountId, image, tag) => has.get(accountId, image, tag) !== undefined,
    register: db.transaction((accountId: string, image: string, tag: string, at: number, keep: number) => {
      register.run(accountId, image, tag, at);
      trim.run({ account: accountId, image, keep });
    }),
  };
}
