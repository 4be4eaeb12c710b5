/**
 * The sandbox check names each missing tool's package. Perl closes the game's inherited
 * descriptors inside every sandbox (sandbox.ts, CLOSE_INHERITED): on a host without it (Debian
 * has it Essential, Fedora and Alpine do not install it by default) the check said only that a
 * test sandbox did not start, and asked for bubblewrap, passt and nftables, all there.
 */
import { describe, expect, it } from 'vitest';
import { findTools, noSandboxMessage } from '../../server/runtime/process/sandbox.js';

/**
 * A host with every tool in /usr/bin but `missing`: made up, not this machine's disk (the tests
 * read it before, and failed on a host without bubblewrap or passt for a reason not theirs).
 */
const everyToolBut = (missing: string) => (path: string) => /^\/usr\/bin\/[a-z]+$/.test(path) && path !== `/usr/bin/${missing}`;

describe('the sandbox tools on a host without perl', () => {
  it('name perl as missing', () => {
    expect(findTools(everyToolBut('perl'))).toEqual({ missing: ['perl'] });
    expect(noSandboxMessage('perl not installed')).toMatch(/Install bubblewrap, passt, nftables and perl/);
  });

  it('give the sandbox the perl they found', () => {
    expect(findTools((path) => path === '/usr/local/bin/perl' || everyToolBut('perl')(path))).toMatchObject({ perl: '/usr/local/bin/perl', bwrap: '/usr/bin/bwrap' });
  });
});
