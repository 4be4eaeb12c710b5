/**
 * Which transaction the running code is in, without passing it down: the store's transaction()
 * runs its callback in a scope (AsyncLocalStorage), and every repository call made from inside,
 * however deep, joins that transaction (PostgreSQL: runs on its connection; SQLite: passes the
 * write gate it holds). Work the callback leaves behind (a timer) finds the scope closed once the
 * transaction has ended, and runs outside it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Before Node 24, an AsyncLocalStorage in use runs a hook on every promise of the process, its
 * transactions' or not (issue 19: it showed in every read's profile). There the storage is
 * disabled whenever no transaction runs (run() enables it again); Node 24's AsyncContextFrame
 * needs no hook.
 */
const PROMISE_HOOKED = '_propagate' in AsyncLocalStorage.prototype;

export class TransactionScope<C> {
  private readonly storage = new AsyncLocalStorage<{ context: C; open: boolean }>();
  private running = 0;

  /** The transaction the caller is in, if any. */
  current(): C | undefined {
    const scope = this.storage.getStore();
    return scope?.open ? scope.context : undefined;
  }

  async run<T>(context: C, fn: () => Promise<T>): Promise<T> {
    const scope = { context, open: true };
    this.running++;
    try {
      return await this.storage.run(scope, fn);
    } finally {
      scope.open = false;
      // Nothing left to find the scope but work left behind, which must find it closed anyway.
      if (--this.running === 0 && PROMISE_HOOKED) this.storage.disable();
    }
  }
}
