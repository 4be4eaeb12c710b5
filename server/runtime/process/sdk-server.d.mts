/** The session as the SDK answers it (spec/sdk/). */
export interface SdkSession {
  id: string;
  labels: Record<string, string>;
  players: string[];
  [more: string]: unknown;
}

export function serveSdk(options: {
  socketPath: string;
  uid?: number;
  allocation: SdkSession | null;
  onReady(): void;
  onHealth(): void;
  onPlayers(connected: string[]): void;
}): Promise<{
  setPlayers(players: string[]): void;
  /** Every call answers with `session` from now on; the returned function answers the calls already waiting for it. */
  allocate(session: SdkSession): () => void;
  close(): void;
}>;

/** sdk-server.mjs's warm-up (a spare supervisor's, while it waits). */
export function warmUp(): Promise<void>;
