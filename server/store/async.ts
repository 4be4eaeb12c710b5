/** A port's interface as the SQLite repositories implement it underneath: the same methods, answering at once. */
export type Sync<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : T[K];
};
