import type { ImageTagStore } from '../domain/ports/catalog.js';
import type { Db } from './sqlite.js';
import type { Sync } from './async.js';

export function createImageTagRepository(db: Db): Sync<ImageTagStore> {
  const has = db.prepare('SELECT 1 FROM image_tags WHERE account_id = ? AND image = ? AND tag = ?').pluck();
  const register = db.prepare(
    'INSERT OR IGNORE INTO image_tags (account_id, image, tag, registered) VALUES (?, ?, ?, ?)',
  );
  const all = db.prepare('SELECT account_id AS accountId, image, tag, registered FROM image_tags ORDER BY image, registered');
  return {
    all: () => all.all() as Awaited<ReturnType<ImageTagStore['all']>>,
    has: (accountId, image, tag) => has.get(accountId, image, tag) !== undefined,
    register: (accountId, image, tag, at) => {
      register.run(accountId, image, tag, at);
    },
  };
}
