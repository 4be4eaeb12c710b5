/**
 * The methods each path answers, collected from every route the app registers, so a method a
 * path lacks is 405 with `Allow` rather than 404. Wildcard routes (the panel's pages) are left
 * out: under them an unknown path is simply unknown.
 */
export class AllowedMethods {
  private readonly patterns = new Map<string, { pattern: RegExp; methods: Set<string> }>();

  add(url: string, methods: string | string[]): void {
    if (url.includes('*')) return;
    let entry = this.patterns.get(url);
    if (!entry) {
      // `:name` is one path segment, as Fastify routes it; everything else is literal.
      const source = url
        .split(/(:[A-Za-z0-9_]+)/)
        .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
        .join('');
      entry = { pattern: new RegExp(`^${source}$`), methods: new Set() };
      this.patterns.set(url, entry);
    }
    // HEAD is not answered (app.ts: exposeHeadRoutes off), so it is not offered either.
    for (const method of [methods].flat()) entry.methods.add(method);
  }

  /** The methods `path` answers, sorted; empty when no route has the path. */
  of(path: string): string[] {
    const methods = new Set<string>();
    for (const { pattern, methods: routeMethods } of this.patterns.values()) {
      if (pattern.test(path)) for (const method of routeMethods) methods.add(method);
    }
    return [...methods].sort();
  }
}
