/**
 * Coordination over PostgreSQL, for several instances on one database: a bus on LISTEN/NOTIFY
 * (one channel; the topic travels in the message), leadership by advisory locks, leases in a
 * table. One dedicated connection listens and holds the locks; a small pool publishes (and serves
 * the start-rate limiter); leases are renewed on a connection of their own, so a busy pool never
 * holds up a renewal until the lease is given up. After the dedicated connection comes back, listeners are told to resync: a NOTIFY sent
 * while it was away is never delivered.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { MAX_MESSAGE_BYTES, type BusListener, type Claim, type ClaimEvents, type Coordination } from './coordination.js';
import { DedicatedConnection } from './pg-connection.js';
import { AdvisoryLeadership } from './pg-leadership.js';
import { LEASES_TABLE, TableLeases, type LeaseTimings } from './pg-leases.js';
import { START_RATE_TABLE_SQL } from '../limits/start-rate.js';

const CHANNEL = 'session_host';
/**
 * The deployment's id: one row, written by the first instance to start. What several instances
 * own together carries it (Docker containers, whose nodes move between instances).
 */
const IDENTITY_TABLE = `CREATE TABLE IF NOT EXISTS cluster_identity (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  id text NOT NULL
)`;
/** What several instances share beside the store: the deployment's id, leases, and the start-rate limiter's counters. */
const CLUSTER_TABLES = [IDENTITY_TABLE, LEASES_TABLE, START_RATE_TABLE_SQL];
/** Serialises the creation of those tables between instances starting together. */
const SCHEMA_LOCK = 0x5e55_0001;

export interface PostgresCoordinationOptions {
  databaseUrl: string;
  instanceId: string;
  /** Leases: 5 s, renewed every second, unless told otherwise. */
  leases?: LeaseTimings;
  /** How often a follower tries to become leader: 1 s unless told otherwise. */
  leaderTryEveryMs?: number;
  /** Connection trouble, for the log (everything is retried). */
  onError?: (error: unknown) => void;
}

interface Envelope {
  topic: string;
  origin: string;
  message: string;
}

export class PostgresCoordination implements Coordination {
  readonly instanceId: string;
  /** The deployment's id, shared by every instance on this database (read at start). */
  deploymentId = '';
  private readonly listeners = new Map<string, Set<BusListener>>();
  private readonly resyncListeners = new Set<() => void>();
  /** A small pool of its own, also for what shares state through tables (the start-rate limiter). */
  readonly pool: pg.Pool;
  private readonly connection: DedicatedConnection;
  private readonly leadership: AdvisoryLeadership;
  private readonly leases: TableLeases;
  /** Lease renewals only: one connection, reopened by the pool when it drops. */
  private readonly leasePool: pg.Pool;

  private constructor(options: PostgresCoordinationOptions) {
    this.instanceId = options.instanceId;
    const onError = options.onError ?? (() => {});
    // Statements that hang (a half-open connection, a frozen database) fail instead, and are
    // retried; so do connections a frozen database accepts but never answers (the kernel takes
    // them while the server is stopped). Leases stay safe meanwhile: their holder gives them up
    // by its own clock (pg-leases.ts), whatever the database does.
    const config: pg.ClientConfig = {
      connectionString: options.databaseUrl,
      query_timeout: 10_000,
      connectionTimeoutMillis: 10_000,
      application_name: `session-host ${options.instanceId}`,
    };
    this.pool = new pg.Pool({ ...config, max: 4 });
    this.pool.on('error', onError);
    this.connection = new DedicatedConnection({ ...config, application_name: `session-host ${options.instanceId} listener` }, {
      opened: async (client, reconnected) => {
        // The server notices a silently vanished instance within seconds, freeing its locks:
        // keepalives while idle, and tcp_user_timeout while notifications to it go unacknowledged
        // (keepalives stay silent then, and the kernel would retry for about 15 minutes).
        await client.query('SET tcp_keepalives_idle = 5; SET tcp_keepalives_interval = 2; SET tcp_keepalives_count = 3; SET tcp_user_timeout = 8000');
        await client.query(`LISTEN ${CHANNEL}`);
        if (reconnected) for (const listener of [...this.resyncListeners]) listener();
        await this.leadership.tryAll();
      },
      dropped: () => this.leadership.dropped(),
      notification: (_channel, payload) => this.deliver(payload),
      failed: onError,
    });
    this.leadership = new AdvisoryLeadership(this.connection, options.leaderTryEveryMs ?? 1000);
    this.leasePool = new pg.Pool({ ...config, max: 1, application_name: `session-host ${options.instanceId} leases` });
    this.leasePool.on('error', onError);
    this.leases = new TableLeases(this.leasePool, this.pool, this.instanceId, options.leases ?? { leaseMs: 5000, renewEveryMs: 1000 }, onError);
  }

  /** Connects and creates the cluster's tables; rejects when the database cannot be reached. */
  static async start(options: PostgresCoordinationOptions): Promise<PostgresCoordination> {
    const coordination = new PostgresCoordination(options);
    try {
      const client = await coordination.pool.connect();
      try {
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
        for (const table of CLUSTER_TABLES) await client.query(table);
        await client.query('INSERT INTO cluster_identity (id) VALUES ($1) ON CONFLICT DO NOTHING', [randomUUID()]);
        coordination.deploymentId = (await client.query<{ id: string }>('SELECT id FROM cluster_identity')).rows[0]!.id;
        await client.query('COMMIT');
      } finally {
        client.release();
      }
      await coordination.connection.open();
    } catch (error) {
      await coordination.close();
      throw error;
    }
    return coordination;
  }

  async publish(topic: string, message: string): Promise<void> {
    const payload = JSON.stringify({ topic, origin: this.instanceId, message } satisfies Envelope);
    if (Buffer.byteLength(payload) > MAX_MESSAGE_BYTES) throw new Error(`bus message on ${topic} too large (${Buffer.byteLength(payload)} bytes)`);
    await this.pool.query('SELECT pg_notify($1, $2)', [CHANNEL, payload]);
  }

  subscribe(topic: string, listener: BusListener): () => void {
    let set = this.listeners.get(topic);
    if (!set) this.listeners.set(topic, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  onResync(listener: () => void): () => void {
    this.resyncListeners.add(listener);
    return () => this.resyncListeners.delete(listener);
  }

  lead(role: string, events: ClaimEvents): Claim {
    return this.leadership.claim(role, events);
  }

  lease(name: string, events: ClaimEvents): Claim {
    return this.leases.claim(name, events);
  }

  async close(): Promise<void> {
    this.leadership.close();
    await this.leases.close();
    this.listeners.clear();
    this.resyncListeners.clear();
    await this.connection.close();
    await this.pool.end().catch(() => {});
    await this.leasePool.end().catch(() => {});
  }

  private deliver(payload: string): void {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(payload) as Envelope;
    } catch {
      return;
    }
    for (const listener of [...(this.listeners.get(envelope.topic) ?? [])]) listener(envelope.message, envelope.origin);
  }
}
