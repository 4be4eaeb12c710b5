/**
 * One webhook POST through the egress guard: IP-literal hosts are checked before connecting,
 * named hosts through the guard's lookup (for the subscription's account) at connect time.
 * Redirects are not followed (a 3xx is the answer). Resolves to the status code; rejects on
 * refusal, network error or the deadline.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { EgressGuard } from './egress-guard.js';

export interface WebhookTarget {
  guard: EgressGuard;
  /** Whose delivery it is: host name lookups are capped per account. */
  accountId: string;
  /** The whole attempt (lookup, connect, status line and headers) ends after this long. */
  deadlineMs: number;
}

export function postWebhook(url: string, headers: Record<string, string>, body: string, { guard, accountId, deadlineMs }: WebhookTarget): Promise<number> {
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
      { method: 'POST', headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) }, lookup: guard.lookupFor(accountId), agent: false },
      (response) => {
        clearTimeout(deadline);
        resolve(response.statusCode ?? 0);
        // The status is the answer; the body is never read. Closing at once means a receiver that
        // dribbles its body cannot hold the socket (and so pile up sockets, one per delivery).
        response.destroy();
      },
    );
    // A total deadline, not `timeout` (an idle timer every byte resets): a receiver that
    // dribbles one header line every few seconds would otherwise hold the delivery forever.
    const deadline = setTimeout(() => request.destroy(new Error(`no answer within ${deadlineMs} ms`)), deadlineMs);
    request.on('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    request.end(body);
  });
}
