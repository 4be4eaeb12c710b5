export const MAX_RESTART_DELAY_MS: number;
export const STEADY_RUN_MS: number;
export function restartBackoff(): { delayAfterCrash(ranMs: number): number };
