/** The domain's Sessions over a store, as unit tests build it (no HTTP, no service). */
import { Catalog } from '../../server/domain/catalog.js';
import type { Runtime } from '../../server/domain/ports/runtime.js';
import { Quota } from '../../server/domain/quota.js';
import { Sessions, type SessionsDependencies } from '../../server/domain/sessions.js';
import type { Store } from '../../server/store/store.js';
import { testFleet } from './service.js';

/**
 * Sessions on `store` and `runtime` with the test fleet, no start-rate limit and a quota that
 * neither charges nor ends sessions; `extra` adds or replaces dependencies (warm pools, a reporter).
 */
export function sessionsOver(store: Store, runtime: Runtime, extra: Partial<SessionsDependencies> = {}): Sessions {
  const now = () => Date.now();
  return new Sessions({
    repository: store.sessions,
    runtime,
    catalog: new Catalog(testFleet(), { has: async () => false, register: async () => {}, all: async () => [] }),
    quota: new Quota(
      {
        account: (id) => store.accounts.findById(id),
        addUsedSeconds: (id, s) => store.accounts.addUsedSeconds(id, s),
        launchedAt: (id) => store.sessions.launchedAt(id),
        launchSummary: (id) => store.sessions.launchSummary(id),
        accountsWithLiveSessions: () => store.sessions.accountsWithLiveSessions(),
      },
      { charge: false, terminate: false, graceMs: 0, tickMs: 1000 },
      now,
    ),
    startRate: { take: async () => ({ ok: true }) },
    now,
    onError: () => {},
    ...extra,
  });
}
