/** The session as the SDK answers it (spec/sdk/). */
export interface SdkSession {
  id: string;
  labels: Record<string, string>;
  players: string[];
  [more: string]: unknown;
}

/** Calls a session's game server may make: `perSecond`, in bursts of up to `burst`. */
export const SDK_CALLS: { perSecond: number; burst: number };
/** The longest socket path serveSdk takes (it binds in bindDir first, under a name of up to 20 bytes). */
export const MAX_SOCKET_PATH: number;

export function serveSdk(options: {
  socketPath: string;
  /**
   * Where it is bound first: a directory the game server does not see, on the socket's file
   * system, no longer a path than socketPath (made, mode 0700, when missing: its parent must
   * exist). The socket is renamed from there into place once it is `uid`'s with mode 0600.
   */
  bindDir: string;
  uid?: number;
  allocation: SdkSession | null;
  onReady(): void;
  onHealth(): void;
  onPlayers(connected: string[]): void;
  /** The call budget (SDK_CALLS by default). */
  calls?: { perSecond: number; burst: number };
  /** The clock the budget is kept on (milliseconds, monotonic; performance.now() by default). */
  now?: () => number;
}): Promise<{
  setPlayers(players: string[]): void;
  /** Every call answers with `session` from now on; the returned function answers the calls already waiting for it. */
  allocate(session: SdkSession): () => void;
  close(): void;
}>;

/** What a game server said through its SDK since its launch (sdk-server.mjs). */
export interface SdkLiveness {
  /** `POST /ready`; true when it is the launch's first. */
  ready(): boolean;
  health(): void;
  readonly isReady: boolean;
  relaunched(): void;
  stop(): void;
}

export function sdkLiveness(options: { healthSeconds?: number; live(): boolean; onMissed(): void }): SdkLiveness;

/** sdk-server.mjs's warm-up (a spare supervisor's, while it waits). */
export function warmUp(): Promise<void>;
