/**
 * The one dedicated PostgreSQL connection of an instance's coordination: it LISTENs and holds
 * the session-level advisory locks of leadership, so both end with it (a dead instance's
 * connection closes, its locks are free at once). When it drops it is reopened with exponential
 * backoff, and whoever built on it is told (locks are gone; notifications may have been missed).
 */
import pg from 'pg';

const FIRST_RETRY_MS = 100;
const LAST_RETRY_MS = 5000;

export interface ConnectionHandlers {
  /** A (re)opened connection: LISTEN again, try the locks again. `reconnected` is false the first time. */
  opened(client: pg.Client, reconnected: boolean): Promise<void>;
  /** The connection is gone: its locks with it. */
  dropped(): void;
  notification(channel: string, payload: string): void;
  /** A failed (re)connection attempt, for the log; it is retried. */
  failed(error: unknown): void;
}

export class DedicatedConnection {
  private client: pg.Client | undefined;
  private retryMs = FIRST_RETRY_MS;
  private retry: NodeJS.Timeout | undefined;
  private everOpened = false;
  private closed = false;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly handlers: ConnectionHandlers,
  ) {}

  /** The first connection; rejects when it cannot be made (bad configuration says so at start). */
  async open(): Promise<void> {
    await this.connect();
  }

  /** Run a query on the dedicated connection; a failure drops it (and it is reopened). */
  async query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R> | undefined> {
    const client = this.client;
    if (!client) return undefined;
    try {
      return await client.query<R>(text, values);
    } catch (error) {
      this.drop(client, error);
      return undefined;
    }
  }

  get connected(): boolean {
    return this.client !== undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ ...this.config, keepAlive: true, keepAliveInitialDelayMillis: 5000 });
    // Errors after connecting arrive as events; a dead connection must not crash the process.
    client.on('error', (error) => this.drop(client, error));
    client.on('end', () => this.drop(client, new Error('connection ended')));
    client.on('notification', (message) => this.handlers.notification(message.channel, message.payload ?? ''));
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.retryMs = FIRST_RETRY_MS;
    const reconnected = this.everOpened;
    try {
      await this.handlers.opened(client, reconnected);
    } catch (error) {
      // Not usable (LISTEN refused on a standby, a pooler refusing SET): closed, or every
      // retry would leave one more connection open on the server.
      this.client = undefined;
      await client.end().catch(() => {});
      throw error;
    }
    this.everOpened = true;
  }

  private drop(client: pg.Client, error: unknown): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.end().catch(() => {});
    this.handlers.dropped();
    if (!this.closed) {
      this.handlers.failed(error);
      this.scheduleReconnect();
    }
  }

  private scheduleReconnect(): void {
    clearTimeout(this.retry);
    this.retry = setTimeout(() => {
      this.connect().catch((error: unknown) => {
        this.handlers.failed(error);
        this.retryMs = Math.min(this.retryMs * 2, LAST_RETRY_MS);
        if (!this.closed) this.scheduleReconnect();
      });
    }, this.retryMs);
    this.retry.unref();
  }
}
