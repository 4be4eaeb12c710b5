/**
 * The schema migrations of server/store/migrations.ts, expressed for PostgreSQL: the same
 * versions and names (a unit test holds the two lists together), the same tables and columns.
 * Columns keep SQLite's shapes where the row mappers read them (flags as 0/1 integers, times as
 * integer milliseconds, JSON as text: byte counts and key order as stored), so both adapters
 * share their mappers and measures. Ids that tie on `created` sort by the database's collation
 * (bytewise in SQLite); a cursor is only ever used on the store that made it.
 */
export const postgresMigrations: readonly { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'accounts and tokens',
    sql: `
      CREATE TABLE accounts (
        id            TEXT PRIMARY KEY,
        name          TEXT NOT NULL,
        email         TEXT UNIQUE,
        quota_minutes BIGINT NOT NULL CHECK (quota_minutes >= 0),
        used_seconds  BIGINT NOT NULL DEFAULT 0,
        operator      SMALLINT NOT NULL DEFAULT 0,
        disabled      SMALLINT NOT NULL DEFAULT 0,
        created       BIGINT NOT NULL
      );
      CREATE INDEX accounts_by_email ON accounts (lower(email));
      CREATE TABLE tokens (
        id          TEXT PRIMARY KEY,
        account_id  TEXT NOT NULL REFERENCES accounts(id),
        issuer_id   TEXT REFERENCES tokens(id),
        name        TEXT NOT NULL,
        scopes      TEXT NOT NULL,
        hash        BYTEA NOT NULL UNIQUE,
        sealed      BYTEA NOT NULL,
        hint        TEXT NOT NULL,
        created     BIGINT NOT NULL,
        expires_at  BIGINT,
        disabled    SMALLINT NOT NULL DEFAULT 0,
        revoked_at  BIGINT,
        last_used   BIGINT
      );
      CREATE INDEX tokens_by_account ON tokens(account_id, created DESC);
      CREATE INDEX tokens_by_issuer ON tokens(issuer_id);
    `,
  },
  {
    version: 2,
    name: 'sessions, their ports and players',
    sql: `
      CREATE TABLE sessions (
        id                 TEXT PRIMARY KEY,
        account_id         TEXT NOT NULL REFERENCES accounts(id),
        image              TEXT NOT NULL,
        tag                TEXT NOT NULL,
        location           TEXT NOT NULL,
        node_id            TEXT NOT NULL,
        host               TEXT NOT NULL,
        created            BIGINT NOT NULL,
        status             TEXT NOT NULL,
        labels             TEXT NOT NULL,
        args               TEXT NOT NULL,
        restart            SMALLINT NOT NULL,
        expires            BIGINT,
        pending_end_reason TEXT,
        ended              BIGINT,
        exit_code          INTEGER,
        end_reason         TEXT,
        running_since      BIGINT
      );
      CREATE INDEX sessions_by_account ON sessions(account_id, created DESC, id DESC);
      CREATE INDEX sessions_live_by_node ON sessions(node_id) WHERE ended IS NULL;
      -- Live sessions are read from here by every instance (no in-memory model): newest first,
      -- per account and fleet-wide.
      CREATE INDEX sessions_live_by_account ON sessions(account_id, created DESC, id DESC) WHERE ended IS NULL;
      CREATE INDEX sessions_live ON sessions(created DESC, id DESC) WHERE ended IS NULL;
      CREATE INDEX sessions_live_by_host ON sessions(host) WHERE ended IS NULL;
      CREATE INDEX sessions_ended ON sessions(ended) WHERE ended IS NOT NULL;
      CREATE TABLE session_ports (
        session_id TEXT NOT NULL REFERENCES sessions(id),
        node_id    TEXT NOT NULL,
        name       TEXT NOT NULL,
        type       TEXT NOT NULL,
        container  INTEGER NOT NULL,
        port       INTEGER NOT NULL,
        live       SMALLINT NOT NULL DEFAULT 1,
        PRIMARY KEY (session_id, name)
      );
      CREATE UNIQUE INDEX session_ports_in_use ON session_ports(node_id, port) WHERE live = 1;
      CREATE TABLE session_players (
        session_id TEXT NOT NULL REFERENCES sessions(id),
        player     TEXT NOT NULL,
        joined     BIGINT NOT NULL,
        PRIMARY KEY (session_id, player)
      );
      CREATE INDEX session_players_by_player ON session_players(player);
    `,
  },
  {
    version: 3,
    name: 'session events, image tags, webhook subscriptions and deliveries',
    sql: `
      CREATE TABLE session_events (
        id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        account_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        status     TEXT NOT NULL,
        previous   TEXT,
        at         BIGINT NOT NULL,
        session    TEXT NOT NULL
      );
      CREATE INDEX session_events_by_account ON session_events(account_id, id);
      CREATE TABLE image_tags (
        account_id TEXT NOT NULL REFERENCES accounts(id),
        image      TEXT NOT NULL,
        tag        TEXT NOT NULL,
        registered BIGINT NOT NULL,
        PRIMARY KEY (account_id, image, tag)
      );
      CREATE TABLE subscriptions (
        id         TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id),
        url        TEXT NOT NULL,
        sealed     BYTEA NOT NULL,
        created    BIGINT NOT NULL,
        deleted    BIGINT,
        cursor     BIGINT NOT NULL,
        attempt    INTEGER NOT NULL DEFAULT 1,
        due        BIGINT NOT NULL DEFAULT 0
      );
      CREATE INDEX subscriptions_by_account ON subscriptions(account_id) WHERE deleted IS NULL;
      CREATE TABLE webhook_deliveries (
        id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        subscription_id TEXT NOT NULL REFERENCES subscriptions(id),
        event_id        BIGINT NOT NULL,
        attempt         INTEGER NOT NULL,
        at              BIGINT NOT NULL,
        ok              SMALLINT NOT NULL,
        status_code     INTEGER,
        error           TEXT
      );
      CREATE INDEX webhook_deliveries_by_subscription ON webhook_deliveries(subscription_id, id DESC);
    `,
  },
  {
    version: 4,
    name: 'admin panel: operators, panel sessions, audit log, account grants, node locks',
    sql: `
      CREATE TABLE operators (
        id            TEXT PRIMARY KEY,
        email         TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        created       BIGINT NOT NULL
      );
      CREATE TABLE admin_sessions (
        id_hash     BYTEA PRIMARY KEY,
        operator_id TEXT NOT NULL REFERENCES operators(id),
        csrf        TEXT NOT NULL,
        created     BIGINT NOT NULL,
        expires     BIGINT NOT NULL
      );
      CREATE TABLE audit_log (
        id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id),
        at         BIGINT NOT NULL,
        actor      TEXT NOT NULL,
        action     TEXT NOT NULL,
        token_id   TEXT,
        details    TEXT NOT NULL
      );
      CREATE INDEX audit_log_by_account ON audit_log(account_id, id DESC);
      CREATE TABLE account_grants (
        account_id TEXT NOT NULL REFERENCES accounts(id),
        kind       TEXT NOT NULL CHECK (kind IN ('location', 'image')),
        name       TEXT NOT NULL,
        PRIMARY KEY (account_id, kind, name)
      );
      CREATE TABLE node_locks (
        node_id TEXT PRIMARY KEY,
        locked  SMALLINT NOT NULL,
        at      BIGINT NOT NULL
      );
    `,
  },
  {
    version: 5,
    name: 'per-account cap on live sessions',
    sql: `
      ALTER TABLE accounts ADD COLUMN max_sessions INTEGER;
    `,
  },
  {
    version: 6,
    name: 'session ids unique per account',
    sql: `
      -- A session is (account_id, id); its key (unique, never shown) names it where the account
      -- is not part of the name. Sessions from before keep their id as their key.
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
    sql: `
      -- Nodes set to drain in the panel: no new sessions, live ones run to their end.
      CREATE TABLE node_drains (
        node_id TEXT PRIMARY KEY,
        at      BIGINT NOT NULL
      );
    `,
  },
  {
    version: 8,
    name: 'warm servers',
    sql: `
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
        created  BIGINT NOT NULL
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
        at       BIGINT NOT NULL,
        PRIMARY KEY (location, image, tag)
      );
    `,
  },
];
