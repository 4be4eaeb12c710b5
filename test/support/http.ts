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
