import { connect, type Socket } from 'node:net';
import { expect } from 'vitest';
/** Raw HTTP calls for API tests, routed through the contract checker. */
import type { ContractRecorder } from './contract.js';

export interface CallOptions {
  token?: string | null;
  /** A JSON value, or a string sent as-is. */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

export function caller(baseUrl: string, defaultToken: string, contract: ContractRecorder) {
  return async (method: string, path: string, options: CallOptions = {}): Promise<CallResult> => {
    const headers: Record<string, string> = { ...options.headers };
    const token = options.token === undefined ? defaultToken : options.token;
    if (token !== null && headers.Authorization === undefined) headers.Authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const response = await contract.fetch(baseUrl + path, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = await response.text();
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json };
  };
}

/** Asserts the spec's error body: every field, an identifier that is the response's trace id, an ISO timestamp. */
export function expectError(result: CallResult, status: number, code: string, path: string) {
  expect(result.status).toBe(status);
  expect(result.headers.get('content-type')).toMatch(/^application\/json/);
  expect(result.json).toMatchObject({ statusCode: status, code, path });
  expect(typeof result.json.message).toBe('string');
  expect(result.json.identifier).toMatch(/^[0-9a-f]{32}$/);
  expect(result.headers.get('traceparent')).toMatch(new RegExp(`^00-${result.json.identifier}-[0-9a-f]{16}-0[01]$`));
  expect(new Date(result.json.timestamp).toISOString()).toBe(result.json.timestamp);
}

/** A GET answer of which the client has taken the first bytes and then nothing more (rawUnreadGet). */
export interface UnreadAnswer {
  /** The status line's code, read from those first bytes (NaN if they hold none). */
  status: number;
  /** Paused: destroy it to leave, as a client that goes away does. */
  socket: Socket;
  /** Reads the rest: whether the answer arrived whole (chunked, to its last chunk) or was cut. */
  rest(): Promise<{ complete: boolean; bytes: number }>;
}

/**
 * A GET on a raw socket whose client takes the answer's first bytes and then nothing more, as a
 * stuck consumer or a paused `curl | less` does: once the socket buffers fill, the service's
 * writes wait. Raw, so no HTTP client reads ahead into its own buffer.
 */
export function rawUnreadGet(url: string, path: string, token: string): Promise<UnreadAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`));
    socket.once('error', (error) => reject(error));
    const closedEarly = () => reject(new Error(`${path}: closed before any answer`));
    socket.once('close', closedEarly);
    // A reset while paused closes the socket before rest() listens: remembered here.
    let closed = false;
    socket.once('close', () => (closed = true));
    socket.on('error', () => {});
    socket.once('data', (first: Buffer) => {
      socket.pause();
      socket.off('close', closedEarly);
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(first.toString('latin1'))?.[1]),
        socket,
        rest: () =>
          new Promise((done) => {
            let bytes = first.length;
            let tail = first.subarray(-5);
            const finish = (complete: boolean) => {
              socket.destroy();
              done({ complete, bytes });
            };
            socket.on('data', (chunk: Buffer) => {
              bytes += chunk.length;
              tail = Buffer.concat([tail, chunk]).subarray(-5);
              // The last chunk of a chunked answer: it came whole (the connection is kept alive after it).
              if (tail.toString('latin1') === '0\r\n\r\n') finish(true);
            });
            if (closed) return finish(false);
            socket.once('close', () => finish(false));
            socket.resume();
          }),
      });
    });
  });
}
