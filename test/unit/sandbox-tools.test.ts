/**
 * The sandbox check names each missing tool's package. Perl closes the game's inherited
 * descriptors inside every sandbox (sandbox.ts, CLOSE_INHERITED): on a host without it (Debian
 * has it Essential, Fedora and Alpine do not install it by default) the check said only that a
 * test sandbox did not start, and asked for bubblewrap, passt and nftables, all there.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findTools, noSandboxMessage } from '../../server/runtime/process/sandbox.js';

describe('the sandbox tools on a host without perl', () => {
  it('name perl as missing', () => {
    // This host, as one without perl.
    expect(findTools((path) => !path.endsWith('/perl') && existsSync(path))).toEqual({ missing: ['perl'] });
    expect(noSandboxMessage('perl not installed')).toMatch(/Install bubblewrap, passt, nftables and perl/);
  });

  it('give the sandbox the perl they found', () => {
    expect(findTools((path) => path === '/usr/local/bin/perl' || (!path.endsWith('/perl') && existsSync(path)))).toMatchObject({ perl: '/usr/local/bin/perl' });
  });
});
