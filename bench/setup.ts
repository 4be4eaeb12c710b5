/** Filling a service with live sessions before a measurement. */
import { waitAllRunning, client } from './api.js';
import { startBody } from './fleets.js';
import { runLoad } from './load.js';
import type { OurService } from './service.js';

/** Start `count` sessions (through the load worker, 10 at a time) and wait until all run. */
export async function fillSessions(service: Pick<OurService, 'url' | 'token'>, count: number, idPrefix: string) {
  const started = performance.now();
  const load = await runLoad({
    url: service.url,
    token: service.token,
    connections: 10,
    amount: count,
    idPrefix,
    requests: [{ method: 'POST', path: '/session', body: startBody, newId: true }],
  });
  const created = load.statusCodes['201'] ?? 0;
  if (created !== count) {
    throw new Error(
      `setup: ${created} of ${count} starts answered 201 (${JSON.stringify(load.statusCodes)}); ` +
        'a 420 here means start rate limiting or capacity',
    );
  }
  const startSeconds = (performance.now() - started) / 1000;
  await waitAllRunning(client(service.url, service.token));
  return { startsPerSecond: count / startSeconds, seconds: (performance.now() - started) / 1000 };
}
