/**
 * players.json in a session's directory: the players the control API joined, which the session's
 * supervisor reads (fs.watch) into its game server's SDK allocation. Written at most once per
 * PLAYERS_WRITE_MS per session: the first change at once, the changes within that time as one
 * write of the latest list when it is over. Each write is the whole list (up to 1,024 players of
 * 128 characters: ~135 KB), and so is the supervisor's read and parse; a join or leave was a
 * request of ~200 bytes, not rate-limited, and a join of a player already there still rewrote it:
 * one client made the service write ~136 KB a request (159 MB in 8 s at 146 requests a second
 * on the loaded test VM), and the supervisor read it all, outside the session's limits (outside
 * check oc3). The player list the control API answers is the store's; only the SDK's copy lags.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** At most one write of a session's players.json this often (as connected.json, the other way). */
export const PLAYERS_WRITE_MS = 1000;

export class PlayersFile {
  /** Sessions written within the last PLAYERS_WRITE_MS, with the list to write when that is over. */
  private readonly held = new Map<string, { next?: readonly string[] }>();

  constructor(
    /** A session's directory. */
    private readonly dirOf: (sessionId: string) => string,
    private readonly writeMs = PLAYERS_WRITE_MS,
  ) {}

  /** The session's players are now `players`. */
  changed(sessionId: string, players: readonly string[]): void {
    const held = this.held.get(sessionId);
    if (held) {
      held.next = players;
      return;
    }
    this.write(sessionId, players);
    const window: { next?: readonly string[] } = {};
    this.held.set(sessionId, window);
    setTimeout(() => {
      this.held.delete(sessionId);
      if (window.next) this.changed(sessionId, window.next);
    }, this.writeMs).unref();
  }

  /** Replaced atomically. Best effort: not this runtime's session any more, or no space: the SDK keeps its last list. */
  private write(sessionId: string, players: readonly string[]): void {
    const dir = this.dirOf(sessionId);
    try {
      writeFileSync(join(dir, 'players.json.tmp'), JSON.stringify(players), { mode: 0o600 });
      renameSync(join(dir, 'players.json.tmp'), join(dir, 'players.json'));
    } catch {
      // See above.
    }
  }
}
