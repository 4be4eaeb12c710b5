/**
 * Versioned schema migrations of both stores, written once. Applied in order, inside one
 * transaction each. Append only: a released migration is never edited, a change is a new entry.
 *
 * A migration names the column types the two stores spell differently (`ColumnTypes`); each
 * store fills them in. PostgreSQL keeps SQLite's shapes where the row mappers read them (flags as
 * 0/1 integers, times as integer milliseconds, JSON as text: byte counts and key order as
 * stored), so both adapters share their mappers and measures. Ids that tie on `created` sort by
 * the database's collation (bytewise in SQLite); a cursor is only ever used on the store that
 * made it. What only one store needs (PostgreSQL's extra indexes, a table rebuild SQLite cannot
 * do with ALTER) goes in that store's field.
 */
export interface ColumnTypes {
  /** Times in milliseconds, counters, cursors: 64 bits (SQLite's INTEGER already is). */
  int64: string;
  /** 0/1, read as a number by the mappers. */
  flag: string;
  bytes: string;
  /** An increasing row id, never reused: the primary key of an append-only log. */
  serial: string;
}

export type StoreKind = 'sqlite' | 'postgres';

const columnTypes: Record<StoreKind, ColumnTypes> = {
  sqlite: { int64: 'INTEGER', flag: 'INTEGER', bytes: 'BLOB', serial: 'INTEGER PRIMARY KEY AUTOINCREMENT' },
  postgres: { int64: 'BIGINT', flag: 'SMALLINT', bytes: 'BYTEA', serial: 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY' },
};

type Statements = (types: ColumnTypes) => string;

export interface Migration {
  version: number;
  name: string;
  /** Run by both stores. */
  sql?: Statements;
  /** Run by one store only, after `sql`. */
  sqlite?: Statements;
  postgres?: Statements;
}

/** A migration as one store runs it. */
export interface StoreMigration {
  version: number;
  name: string;
  sql: string;
}

export function migrationsFor(store: StoreKind): readonly StoreMigration[] {
  const types = columnTypes[store];
  return schemaHistory.map(({ version, name, sql, [store]: only }) => ({
    version,
    name,
    sql: [sql, only].map((statements) => statements?.(types) ?? '').join('\n'),
  }));
}

// Migration 2's session columns after the id and account, and a port's columns after its
// session: migration 6 rebuilds both tables in SQLite around them.
const sessionColumns = ({ int64, flag }: ColumnTypes) => `
        image              TEXT NOT NULL,
        tag                TEXT NOT NULL,
        location           TEXT NOT NULL,
        node_id            TEXT NOT NULL,
        host               TEXT NOT NULL,
        created            ${int64} NOT NULL,
        status             TEXT NOT NULL,
        labels             TEXT NOT NULL,
        args               TEXT NOT NULL,
        restart            ${flag} NOT NULL,
        expires            ${int64},
        pending_end_reason TEXT,
        ended              ${int64},
        exit_code          INTEGER,
        end_reason         TEXT,
        running_since      ${int64}`;

const portColumns = ({ flag }: ColumnTypes) => `
        node_id    TEXT NOT NULL,
        name       TEXT NOT NULL,
        type       TEXT NOT NULL,
        container  INTEGER NOT NULL,
        port       INTEGER NOT NULL,
        live       ${flag} NOT NULL DEFAULT 1`;

const schemaHistory: readonly Migration[] = [
  {
    version: 1,
    name: 'accounts and tokens',
    sql: ({ int64, flag, bytes }) => `
      CREATE TABLE accounts (
        id            TEXT PRIMARY KEY,
        name          TEXT NOT NULL,
        email         TEXT UNIQUE,
        quota_minutes ${int64} NOT NULL CHECK (quota_minutes >= 0),
        used_seconds  ${int64} NOT NULL DEFAULT 0,
        operator      ${flag} NOT NULL DEFAULT 0,
        disabled      ${flag} NOT NULL DEFAULT 0,
        created       ${int64} NOT NULL
      );
      CREATE TABLE tokens (
        id          TEXT PRIMARY KEY,
        account_id  TEXT NOT NULL REFERENCES accounts(id),
        issuer_id   TEXT REFERENCES tokens(id),
        name        TEXT NOT NULL,
        scopes      TEXT NOT NULL,
        hash        ${bytes} NOT NULL UNIQUE,
        sealed      ${bytes} NOT NULL,
        hint        TEXT NOT NULL,
        created     ${int64} NOT NULL,
        expires_at  ${int64},
        disabled    ${flag} NOT NULL DEFAULT 0,
        revoked_at  ${int64},
        last_used   ${int64}
      );
      CREATE INDEX tokens_by_account ON tokens(account_id, created DESC);
      CREATE INDEX tokens_by_issuer ON tokens(issuer_id);
    `,
    postgres: () => `
      CREATE INDEX accounts_by_email ON accounts (lower(email));
    `,
  },
  {
    version: 2,
    name: 'sessions, their ports and players',
    sql: (types) => `
      CREATE TABLE sessions (
        id                 TEXT PRIMARY KEY,
        account_id         TEXT NOT NULL REFERENCES accounts(id),${sessionColumns(types)}
      );
      CREATE INDEX sessions_by_account ON sessions(account_id, created DESC, id DESC);
      CREATE INDEX sessions_live_by_node ON sessions(node_id) WHERE ended IS NULL;
      -- Every session's port allocation; live ports are held, and unique per node.
      CREATE TABLE session_ports (
        session_id TEXT NOT NULL REFERENCES sessions(id),${portColumns(types)},
        PRIMARY KEY (session_id, name)
      );
      CREATE UNIQUE INDEX session_ports_in_use ON session_ports(node_id, port) WHERE live = 1;
      CREATE TABLE session_players (
        session_id TEXT NOT NULL REFERENCES sessions(id),
        player     TEXT NOT NULL,
        joined     ${types.int64} NOT NULL,
        PRIMARY KEY (session_id, player)
      );
    `,
    // Live sessions are read from here by every instance (no in-memory model): newest first,
    // per account and fleet-wide.
    postgres: () => `
      CREATE INDEX sessions_live_by_account ON sessions(account_id, created DESC, id DESC) WHERE ended IS NULL;
      CREATE INDEX sessions_live ON sessions(created DESC, id DESC) WHERE ended IS NULL;
      CREATE INDEX sessions_live_by_host ON sessions(host) WHERE ended IS NULL;
      CREATE INDEX sessions_ended ON sessions(ended) WHERE ended IS NOT NULL;
      CREATE INDEX session_players_by_player ON session_players(player);
    `,
  },
  {
    version: 3,
    name: 'session events, image tags, webhook subscriptions and deliveries',
    sql: ({ int64, flag, bytes, serial }) => `
      -- Every session state change, in order, with the session as it was then; the id is the
      -- SSE event id and the webhook cursor. Pruned to the replay window.
      CREATE TABLE session_events (
        id         ${serial},
        account_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        status     TEXT NOT NULL,
        previous   TEXT,
        at         ${int64} NOT NULL,
        session    TEXT NOT NULL
      );
      CREATE INDEX session_events_by_account ON session_events(account_id, id);
      -- Tags registered by a registry push, per account; they run as the image's default tag.
      CREATE TABLE image_tags (
        account_id TEXT NOT NULL REFERENCES accounts(id),
        image      TEXT NOT NULL,
        tag        TEXT NOT NULL,
        registered ${int64} NOT NULL,
        PRIMARY KEY (account_id, image, tag)
      );
      -- An endpoint and where it stands in the account's event log: events after cursor are
      -- still to deliver, in order; the next one is on its attempt-th try, due at due.
      CREATE TABLE subscriptions (
        id         TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id),
        url        TEXT NOT NULL,
        sealed     ${bytes} NOT NULL,
        created    ${int64} NOT NULL,
        deleted    ${int64},
        cursor     ${int64} NOT NULL,
        attempt    INTEGER NOT NULL DEFAULT 1,
        due        ${int64} NOT NULL DEFAULT 0
      );
      CREATE INDEX subscriptions_by_account ON subscriptions(account_id) WHERE deleted IS NULL;
      CREATE TABLE webhook_deliveries (
        id              ${serial},
        subscription_id TEXT NOT NULL REFERENCES subscriptions(id),
        event_id        ${int64} NOT NULL,
        attempt         INTEGER NOT NULL,
        at              ${int64} NOT NULL,
        ok              ${flag} NOT NULL,
        status_code     INTEGER,
        error           TEXT
      );
      CREATE INDEX webhook_deliveries_by_subscription ON webhook_deliveries(subscription_id, id DESC);
    `,
  },
  {
    version: 4,
    name: 'admin panel: operators, panel sessions, audit log, account grants, node locks',
    sql: ({ int64, flag, bytes, serial }) => `
      -- People who sign in to the admin panel (not accounts: accounts own tokens and sessions).
      CREATE TABLE operators (
        id            TEXT PRIMARY KEY,
        email         TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        created       ${int64} NOT NULL
      );
      -- Panel sessions, looked up by the SHA-256 of the cookie value.
      CREATE TABLE admin_sessions (
        id_hash     ${bytes} PRIMARY KEY,
        operator_id TEXT NOT NULL REFERENCES operators(id),
        csrf        TEXT NOT NULL,
        created     ${int64} NOT NULL,
        expires     ${int64} NOT NULL
      );
      -- Every token change and reveal, and every account change, made in the panel.
      CREATE TABLE audit_log (
        id         ${serial},
        account_id TEXT NOT NULL REFERENCES accounts(id),
        at         ${int64} NOT NULL,
        actor      TEXT NOT NULL,
        action     TEXT NOT NULL,
        token_id   TEXT,
        details    TEXT NOT NULL
      );
      CREATE INDEX audit_log_by_account ON audit_log(account_id, id DESC);
      -- Private locations and images an account may use, besides the fleet file's lists.
      CREATE TABLE account_grants (
        account_id TEXT NOT NULL REFERENCES accounts(id),
        kind       TEXT NOT NULL CHECK (kind IN ('location', 'image')),
        name       TEXT NOT NULL,
        PRIMARY KEY (account_id, kind, name)
      );
      -- Maintenance locks set in the panel; they override the fleet file's \`locked\`.
      CREATE TABLE node_locks (
        node_id TEXT PRIMARY KEY,
        locked  ${flag} NOT NULL,
        at      ${int64} NOT NULL
      );
    `,
  },
  {
    version: 5,
    name: 'per-account cap on live sessions',
    sql: () => `
      -- The most live sessions the account may have at once; NULL: no cap.
      ALTER TABLE accounts ADD COLUMN max_sessions INTEGER;
    `,
  },
  {
    version: 6,
    name: 'session ids unique per account',
    sqlite: (types) => `
      -- A session is (account_id, id): two accounts may use the same id. Its key names it
      -- everywhere the account is not part of the name (runtime directories, containers,
      -- cgroups, internal maps); sessions from before keep their id as their key, which is
      -- what their supervisors and containers already carry.
      ALTER TABLE session_players RENAME TO session_players_v5;
      ALTER TABLE session_ports RENAME TO session_ports_v5;
      ALTER TABLE sessions RENAME TO sessions_v5;
      CREATE TABLE sessions (
        account_id         TEXT NOT NULL REFERENCES accounts(id),
        id                 TEXT NOT NULL,
        key                TEXT NOT NULL UNIQUE,${sessionColumns(types)},
        PRIMARY KEY (account_id, id)
      );
      INSERT INTO sessions (account_id, id, key, image, tag, location, node_id, host, created, status, labels, args,
                            restart, expires, pending_end_reason, ended, exit_code, end_reason, running_since)
        SELECT account_id, id, id, image, tag, location, node_id, host, created, status, labels, args,
               restart, expires, pending_end_reason, ended, exit_code, end_reason, running_since
        FROM sessions_v5;
      CREATE TABLE session_ports (
        account_id TEXT NOT NULL,
        session_id TEXT NOT NULL,${portColumns(types)},
        PRIMARY KEY (account_id, session_id, name),
        FOREIGN KEY (account_id, session_id) REFERENCES sessions(account_id, id)
      );
      INSERT INTO session_ports (account_id, session_id, node_id, name, type, container, port, live)
        SELECT s.account_id, p.session_id, p.node_id, p.name, p.type, p.container, p.port, p.live
        FROM session_ports_v5 p JOIN sessions_v5 s ON s.id = p.session_id;
      CREATE TABLE session_players (
        account_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        player     TEXT NOT NULL,
        joined     ${types.int64} NOT NULL,
        PRIMARY KEY (account_id, session_id, player),
        FOREIGN KEY (account_id, session_id) REFERENCES sessions(account_id, id)
      );
      INSERT INTO session_players (account_id, session_id, player, joined)
        SELECT s.account_id, p.session_id, p.player, p.joined
        FROM session_players_v5 p JOIN sessions_v5 s ON s.id = p.session_id;
      DROP TABLE session_players_v5;
      DROP TABLE session_ports_v5;
      DROP TABLE sessions_v5;
      CREATE INDEX sessions_by_account ON sessions(account_id, created DESC, id DESC);
      CREATE INDEX sessions_live_by_node ON sessions(node_id) WHERE ended IS NULL;
      CREATE UNIQUE INDEX session_ports_in_use ON session_ports(node_id, port) WHERE live = 1;
      CREATE INDEX session_players_by_player ON session_players(account_id, player);
    `,
    postgres: () => `
      -- The same in place: ALTER does in PostgreSQL what SQLite needs a rebuild for.
      ALTER TABLE sessions ADD COLUMN key TEXT;
      UPDATE sessions SET key = id;
      ALTER TABLE sessions ALTER COLUMN key SET NOT NULL, ADD CONSTRAINT sessions_key UNIQUE (key);
      ALTER TABLE session_ports ADD COLUMN account_id TEXT;
      UPDATE session_ports p SET account_id = s.account_id FROM sessions s WHERE s.id = p.session_id;
      ALTER TABLE session_players ADD COLUMN account_id TEXT;
      UPDATE session_players p SET account_id = s.account_id FROM sessions s WHERE s.id = p.session_id;
      ALTER TABLE session_ports ALTER COLUMN account_id SET NOT NULL,
        DROP CONSTRAINT session_ports_session_id_fkey, DROP CONSTRAINT session_ports_pkey;
      ALTER TABLE session_players ALTER COLUMN account_id SET NOT NULL,
        DROP CONSTRAINT session_players_session_id_fkey, DROP CONSTRAINT session_players_pkey;
      ALTER TABLE sessions DROP CONSTRAINT sessions_pkey, ADD PRIMARY KEY (account_id, id);
      ALTER TABLE session_ports ADD PRIMARY KEY (account_id, session_id, name),
        ADD FOREIGN KEY (account_id, session_id) REFERENCES sessions(account_id, id);
      ALTER TABLE session_players ADD PRIMARY KEY (account_id, session_id, player),
        ADD FOREIGN KEY (account_id, session_id) REFERENCES sessions(account_id, id);
      DROP INDEX session_players_by_player;
      CREATE INDEX session_players_by_player ON session_players(account_id, player);
      -- Listings page by (created, id, account) now; the admin panel finds an id in every account.
      DROP INDEX sessions_live;
      CREATE INDEX sessions_live ON sessions(created DESC, id DESC, account_id DESC) WHERE ended IS NULL;
      CREATE INDEX sessions_by_id ON sessions(id);
    `,
  },
  {
    version: 7,
    name: 'node drains',
    sql: ({ int64 }) => `
      -- Nodes set to drain in the panel: no new sessions, live ones run to their end.
      CREATE TABLE node_drains (
        node_id TEXT PRIMARY KEY,
        at      ${int64} NOT NULL
      );
    `,
  },
  {
    version: 8,
    name: 'warm servers',
    sql: ({ int64 }) => `
      -- Warm pools' game servers: started ahead of need, ready but unallocated, charged to nobody.
      -- A start claims one (deleting its row) in the transaction that inserts its session.
      CREATE TABLE warm_servers (
        key      TEXT PRIMARY KEY,
        location TEXT NOT NULL,
        image    TEXT NOT NULL,
        tag      TEXT NOT NULL,
        node_id  TEXT NOT NULL,
        host     TEXT NOT NULL,
        ports    TEXT NOT NULL,
        status   TEXT NOT NULL CHECK (status IN ('starting', 'ready')),
        created  ${int64} NOT NULL
      );
      CREATE INDEX warm_servers_by_pool ON warm_servers(location, image, tag, status, created);
      CREATE INDEX warm_servers_by_node ON warm_servers(node_id);
      CREATE INDEX warm_servers_by_host ON warm_servers(host);
      -- Pool sizes set in the admin panel, over the fleet file's.
      CREATE TABLE warm_pool_sizes (
        location TEXT NOT NULL,
        image    TEXT NOT NULL,
        tag      TEXT NOT NULL,
        warm     INTEGER NOT NULL,
        at       ${int64} NOT NULL,
        PRIMARY KEY (location, image, tag)
      );
    `,
  },
  {
    version: 9,
    name: 'event log pruning mark',
    postgres: () => `
      -- The highest event id pruned, so the replay window starts just after it rather than at
      -- the oldest id kept. Ids are dense (appends take the event log lock: postgres/sessions.ts)
      -- except for ids that rolled-back transactions took from the serial and never wrote: with
      -- one of those just above the pruned ones, a reader whose cursor is the last pruned id
      -- would look as if it had missed an event.
      -- One number updated in place: a sequence.
      CREATE SEQUENCE session_events_pruned MINVALUE 0;
      SELECT setval('session_events_pruned',
        coalesce((SELECT min(id) - 1 FROM session_events), pg_sequence_last_value(pg_get_serial_sequence('session_events', 'id')), 0));
    `,
  },
  {
    version: 10,
    name: 'live sessions in load order in SQLite',
    sqlite: () => `
      -- The SQLite store counts live sessions per node in memory (live-sessions.ts) and never asks
      -- the database per node (issue 19). What it does ask is the whole live set, in order, to
      -- build that read model at start-up and after every rolled-back transaction: an index in
      -- the load's order over live sessions only, so the load neither scans the ended sessions
      -- kept for retention nor sorts (PostgreSQL reads its own partial indexes on live sessions).
      DROP INDEX sessions_live_by_node;
      CREATE INDEX sessions_live ON sessions(created, id, account_id) WHERE ended IS NULL;
    `,
  },
  {
    version: 11,
    name: 'ports released by the session end in SQLite',
    sqlite: () => `
      -- The update that ends a session releases its ports in the same statement (atomic without
      -- a savepoint of its own, and found by the session's primary key, not its key): issue 19
      -- counted a savepoint, its release and a lookup by key on every stop.
      CREATE TRIGGER session_ports_released AFTER UPDATE OF ended ON sessions WHEN NEW.ended IS NOT NULL
      BEGIN
        UPDATE session_ports SET live = 0 WHERE account_id = NEW.account_id AND session_id = NEW.id;
      END;
    `,
  },
  {
    version: 12,
    name: 'deleted subscriptions by account',
    sql: () => `
      -- A new subscription purges its account's deleted ones past those kept (with their delivery
      -- logs): found here, not by a scan of every account's subscriptions per create.
      CREATE INDEX subscriptions_deleted_by_account ON subscriptions(account_id, deleted) WHERE deleted IS NOT NULL;
    `,
  },
  {
    version: 13,
    name: 'event sizes',
    sql: () => `
      -- Each event's copy of its session in bytes: the replay window is bounded by bytes as well as
      -- by count and age (a session's labels and players are copied into each of its events:
      -- outside check 9 made 10,000 events of 1 MB). Events stored before count as nothing.
      ALTER TABLE session_events ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 14,
    name: 'event log pruning mark in SQLite',
    sqlite: () => `
      -- The highest event id pruned, as PostgreSQL keeps it (migration 9): the replay window
      -- starts just after it. The oldest id kept is no start: events that subscriptions hold
      -- back for one account stay below ids pruned of the others, and a reader of another
      -- account resuming from between them would have been taken for one that missed nothing.
      CREATE TABLE event_log_pruned (id INTEGER NOT NULL);
      INSERT INTO event_log_pruned (id) VALUES (
        coalesce((SELECT min(id) - 1 FROM session_events), (SELECT seq FROM sqlite_sequence WHERE name = 'session_events'), 0));
    `,
  },
  {
    version: 15,
    name: 'warm servers launch',
    sql: () => `
      -- What a warm server was launched with (its pool's env and args, its tag, its limits), as
      -- warmLaunchOf() writes it: one adopted by a run whose fleet file says otherwise is retired,
      -- not handed a start that asked for the new ones. Those stored before match nothing.
      ALTER TABLE warm_servers ADD COLUMN launch TEXT NOT NULL DEFAULT '';
    `,
  },
  {
    version: 16,
    name: 'panel sessions by CSRF token',
    sql: () => `
      -- A panel request's session is found by its X-CSRF-Token, then matched to one of the
      -- cookies it sent (however many a page on another port of the host planted).
      CREATE UNIQUE INDEX admin_sessions_by_csrf ON admin_sessions (csrf);
    `,
  },
];

/** The migrations as SQLite runs them. */
export const migrations = migrationsFor('sqlite');
