/** sdk-server.mjs's warm-up (a spare supervisor's, while it waits). */
export function warmUp(): Promise<void>;
