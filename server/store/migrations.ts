/**
 * Versioned schema migrations, applied in order inside one transaction each. Append only:
 * a released migration is never edited, a change is a new entry.
 */
export const migrations: readonly { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'accounts and tokens',
    sql: `
      CREATE TABLE accounts (
        id            TEXT PRIMARY KEY,
        name          TEXT NOT NULL,
        email         TEXT UNIQUE,
        quota_minutes INTEGER NOT NULL CHECK (quota_minutes >= 0),
        used_seconds  INTEGER NOT NULL DEFAULT 0,
        operator      INTEGER NOT NULL DEFAULT 0,
        disabled      INTEGER NOT NULL DEFAULT 0,
        created       INTEGER NOT NULL
      );
      CREATE TABLE tokens (
        id          TEXT PRIMARY KEY,
        account_id  TEXT NOT NULL REFERENCES accounts(id),
        issuer_id   TEXT REFERENCES tokens(id),
        name        TEXT NOT NULL,
        scopes      TEXT NOT NULL,
        hash        BLOB NOT NULL UNIQUE,
        sealed      BLOB NOT NULL,
        hint        TEXT NOT NULL,
        created     INTEGER NOT NULL,
        expires_at  INTEGER,
        disabled    INTEGER NOT NULL DEFAULT 0,
        revoked_at  INTEGER,
        last_used   INTEGER
      );
      CREATE INDEX tokens_by_account ON tokens(account_id, created DESC);
      CREATE INDEX tokens_by_issuer ON tokens(issuer_id);
    `,
  },
];
