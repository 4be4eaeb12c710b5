/**
 * One webhook POST through the egress guard: IP-literal hosts are checked before connecting,
 * named hosts through the guard's lookup at connect time. Redirects are not followed (a 3xx is
 * the answer). Resolves to the status code; rejects on refusal, network error or timeout.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { EgressGuard } from './egress-guard.js';

export function postWebhook(url: string, headers: Record<string, string>, body: string, guard: EgressGuard, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !guard.permits(host)) {
      reject(new Error(`refused: ${host} is an internal address`));
      return;
    }
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(
      target,
      { method: 'POST', headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) }, lookup: guard.lookup, timeout: timeoutMs, agent: false },
      (response) => {
        resolve(response.statusCode ?? 0);
        // The status is the answer; the body is never read. Closing at once means a receiver that
        // dribbles its body cannot hold the socket (and so pile up sockets, one per delivery).
        response.destroy();
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.on('error', reject);
    request.end(body);
  });
}
