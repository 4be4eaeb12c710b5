/**
 * Which transaction the running code is in, without passing it down: the store's transaction()
 * runs its callback in a scope (AsyncLocalStorage), and every repository call made from inside,
 * however deep, joins that transaction (PostgreSQL: runs on its connection; SQLite: passes the
 * write gate it holds). Work the callback leaves behind (a timer) finds the scope closed once the
 * transaction has ended, and runs outside it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export class TransactionScope<C> {
  private readonly storage = new AsyncLocalStorage<{ context: C; open: boolean }>();

  /** The transaction the caller is in, if any. */
  current(): C | undefined {
    const scope = this.storage.getStore();
    return scope?.open ? scope.context : undefined;
  }

  async run<T>(context: C, fn: () => Promise<T>): Promise<T> {
    const scope = { context, open: true };
    try {
      return await this.storage.run(scope, fn);
    } finally {
      scope.open = false;
    }
  }
}
