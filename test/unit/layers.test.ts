/**
 * The layers of the server, as the README's architecture section draws them: the domain knows
 * its adapters (store, runtime, events, security, http) only through `server/domain/ports/`,
 * and the adapters reach into the domain only there.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|mts)$/.test(file))
    .map((file) => join(dir, file));
}

/** Each import of a file as a path from the repository root (relative imports only), with whether it is type-only. */
function imports(file: string): { target: string; typeOnly: boolean }[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/^(?:import|export)(\s+type)?\s[^;]*?from '(\.[^']+)';/gms)].map((m) => ({
    target: relative(root, resolve(root, dirname(file), m[2]!)).replace(/\.js$/, ''),
    typeOnly: m[1] !== undefined,
  }));
}

describe('the layers of the server', () => {
  it('let the store and the runtimes reach the domain only through its ports', () => {
    const crossings = ['server/store', 'server/runtime']
      .flatMap(sources)
      .flatMap((file) => imports(file).map(({ target }) => `${file} -> ${target}`))
      .filter((edge) => edge.includes('-> server/domain/') && !edge.includes('-> server/domain/ports/'));
    expect(crossings).toEqual([]);
  });

  it('keep the domain free of adapters', () => {
    const adapters = /^server\/(http|store|runtime|events|security|observability|cluster|limits)\//;
    const crossings = sources('server/domain')
      .flatMap((file) => imports(file).map(({ target }) => ({ file, target })))
      .filter(({ target }) => adapters.test(target))
      .map(({ file, target }) => `${file} -> ${target}`);
    expect(crossings).toEqual([]);
  });

  it('give the domain only the types of the configuration, not its loading', () => {
    const crossings = sources('server/domain')
      .flatMap((file) => imports(file).map((i) => ({ file, ...i })))
      .filter(({ target, typeOnly }) => target.startsWith('server/config/') && !typeOnly)
      .map(({ file, target }) => `${file} -> ${target}`);
    expect(crossings).toEqual([]);
  });

  it('hold only types in the ports', () => {
    const files = sources('server/domain/ports');
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const text = readFileSync(join(root, file), 'utf8');
      expect(imports(file).filter((i) => !i.typeOnly), file).toEqual([]);
      expect(text, file).not.toMatch(/^export (const|let|function|class|default|enum)\b/m);
    }
  });
});
