/**
 * Files the service rewrites whole when a session's players change (the process runtime's
 * players.json, which the session's supervisor reads into its game server's SDK allocation; a
 * Docker session's sdk.json, for whichever instance serves its SDK next): written at most once
 * per window per session, the first change at once and the changes within the window as one
 * write of the latest when it is over. Each write is the whole list (up to 1,024 players of 128
 * characters: ~135 KB, with a Docker session's labels more), while a join or leave request is
 * ~200 bytes and not rate-limited, and a join of a player already there rewrote it too: one
 * client made the service write 159 MB in 8 s (146 requests a second on the loaded test VM), and
 * the supervisor read and parse it all, outside the session's limits (outside check oc3).
 */

/** At most one write per session this often (as the supervisor's connected.json, the other way). */
export const WRITE_WINDOW_MS = 1000;

export class WindowedWrites<T> {
  /** Sessions written within the last window, with what to write when it is over. */
  private readonly held = new Map<string, { next?: { value: T } }>();

  constructor(
    /** Writes it now (best effort: it handles its own failures). */
    private readonly write: (key: string, value: T) => void,
    private readonly windowMs = WRITE_WINDOW_MS,
  ) {}

  /** The session's value is now `value`. */
  changed(key: string, value: T): void {
    const held = this.held.get(key);
    if (held) {
      held.next = { value };
      return;
    }
    this.write(key, value);
    const window: { next?: { value: T } } = {};
    this.held.set(key, window);
    setTimeout(() => {
      if (this.held.get(key) !== window) return;
      this.held.delete(key);
      if (window.next) this.changed(key, window.next.value);
    }, this.windowMs).unref();
  }

  /** What waits for the session's window, written now (its writer hands it over or closes). */
  flush(key: string): void {
    const next = this.held.get(key)?.next;
    this.held.delete(key);
    if (next) this.write(key, next.value);
  }

  /** What waits for the session's window, never written (its file is being removed). */
  discard(key: string): void {
    this.held.delete(key);
  }

  flushAll(): void {
    for (const key of [...this.held.keys()]) this.flush(key);
  }
}
