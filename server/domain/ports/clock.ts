/**
 * Milliseconds since the epoch, as the service tells time: a wall clock read once at start and
 * advanced monotonically (server/clock.ts), so durations never jump with the system clock.
 */
export type Clock = () => number;
