export interface EventuallyOptions<T> {
  /** Accepts the probe's value; default: any truthy value. */
  until?: (value: T) => boolean;
  /** Default 15 s. */
  timeoutMs?: number;
  /** Pause between probes; default 25 ms. */
  intervalMs?: number;
  /** Names the awaited condition in the timeout error. */
  what?: string;
}

/** Calls `probe` until `until` accepts its value and returns it; throws after `timeoutMs`. */
export function eventually<T>(probe: () => T | Promise<T>, options?: EventuallyOptions<T>): Promise<T>;
