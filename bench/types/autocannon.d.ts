/**
 * The slice of autocannon 8's programmatic API the load worker uses (the package ships no
 * types, and installing @types/autocannon is out of scope for the benchmarks).
 */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    setupRequest?: (request: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest | undefined;
  }

  interface AutocannonClient extends EventEmitter {
    setRequests(requests: AutocannonRequest[]): void;
  }

  interface AutocannonOptions {
    url: string;
    connections?: number;
    pipelining?: number;
    duration?: number;
    amount?: number;
    timeout?: number;
    headers?: Record<string, string>;
    requests?: AutocannonRequest[];
    setupClient?: (client: AutocannonClient) => void;
  }

  interface AutocannonResult {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  interface AutocannonInstance extends EventEmitter {
    stop(): void;
  }

  function autocannon(options: AutocannonOptions, callback: (error: Error | null, result: AutocannonResult) => void): AutocannonInstance;
  export default autocannon;
  export type { AutocannonClient, AutocannonOptions, AutocannonRequest, AutocannonResult };
}
