/**
 * HTTP load from a separate process: runLoad() forks load-worker.ts, which drives autocannon
 * and sends back raw numbers. Keeping the load generator out of the orchestrator (and out of
 * the service) means its CPU shows up in neither the service's profile nor its RSS.
 *
 * Requests are described as data (the worker builds autocannon's setupRequest functions from
 * them), since functions cannot cross the IPC channel.
 */
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { track } from './processes.js';
import type { Summary } from './stats.js';

/**
 * One request of the cycle each connection repeats. In `path` and `body`, `{id}` is the
 * connection's current session id, `{n}` its sequence number and `{n%K}` that number modulo K.
 * `newId` draws a fresh id (`<idPrefix>-<n>`) before the request is built.
 */
export interface RequestTemplate {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  body?: string;
  newId?: boolean;
}

export interface LoadSpec {
  url: string;
  token: string;
  requests: RequestTemplate[];
  connections: number;
  /** Either a duration or a total number of requests. */
  durationSeconds?: number;
  amount?: number;
  /** A discarded run of this length first, so JIT and caches are warm. */
  warmupSeconds?: number;
  idPrefix?: string;
  /** autocannon (default), or raw-client.ts: GETs of one path over one connection, bodies counted and dropped, never decoded. */
  client?: 'autocannon' | 'raw';
}

export interface LoadResult {
  /** Responses received in the measured run, by status code. */
  statusCodes: Record<string, number>;
  /** 2xx responses per second of wall time. */
  okPerSecond: number;
  ok: number;
  errors: number;
  timeouts: number;
  wallSeconds: number;
  /** Latency of 2xx responses, and of all responses, in ms (autocannon's per-response timer). */
  latencyMs: Summary;
  allLatencyMs: Summary;
  /**
   * The load generator's own garbage collections in the measured run (its pauses land inside the
   * response times it measures: autocannon decodes every body into a string), by kind, and their
   * total pause in ms.
   */
  loadGeneratorGc: { minor: number; major: number; ms: number };
}

const WORKER = join(import.meta.dirname, 'load-worker.ts');

export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  // A run of `amount` requests may take a while on a busy machine: at least 50 a second is allowed for.
  const budgetMs = ((spec.warmupSeconds ?? 0) + (spec.durationSeconds ?? Math.max(60, (spec.amount ?? 0) / 50)) + 30) * 1000;
  return new Promise((resolve, reject) => {
    const worker = track(fork(WORKER, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
    let settled = false;
    const timer = setTimeout(() => {
      worker.kill('SIGKILL');
      finish(new Error(`load worker exceeded ${budgetMs} ms`));
    }, budgetMs);
    const finish = (error: Error | null, result?: LoadResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(result!);
    };
    worker.on('message', (message: { result?: LoadResult; error?: string }) => {
      if (message.error) finish(new Error(`load worker: ${message.error}`));
      else finish(null, message.result);
    });
    worker.on('exit', (code) => finish(new Error(`load worker exited with ${code} before reporting`)));
    worker.send(spec);
  });
}
