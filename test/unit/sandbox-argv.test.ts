/** The sandbox's command line: what each game server is shown, and what reaches it. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hiddenPrefixOf, sandboxArgv } from '../../server/runtime/process/sandbox.js';

const tools = { bwrap: '/usr/bin/bwrap', pasta: '/usr/bin/pasta', setpriv: '/usr/bin/setpriv', prlimit: '/usr/bin/prlimit', nft: '/usr/sbin/nft', perl: '/usr/bin/perl', seccompFile: '/run/session-host-seccomp-0.bpf' };
const argv = sandboxArgv(tools, {
  uid: 400_007,
  workDir: '/srv/data/sessions/s1/work',
  hostAddress: '203.0.113.7',
  ports: [
    { name: 'game', type: 'udp', container: 7777, host: 20000 },
    { name: 'query', type: 'tcp', container: 7778, host: 20001 },
  ],
  hide: ['/srv/data'],
  readOnly: ['/opt/game'],
  limits: { openFiles: 512, fileBytes: 1 << 20 },
});
const after = (flag: string, from = 0) => argv[argv.indexOf(flag, from) + 1];
const pairs = (flag: string) => argv.flatMap((arg, i) => (arg === flag ? [argv[i + 1]] : []));

describe('the sandbox command line', () => {
  it('runs the game server as the session uid and gid, without groups or capabilities', () => {
    expect(argv).toEqual(expect.arrayContaining(['--reuid=400007', '--regid=400007', '--clear-groups', '--inh-caps=-all', '--cap-drop']));
    expect(after('--uid')).toBe('400007');
    expect(after('--gid')).toBe('400007');
  });

  it('forwards exactly the declared ports on the node address, and nothing back to the host', () => {
    expect(after('--tcp-ports')).toBe('203.0.113.7/20001');
    expect(after('--udp-ports')).toBe('203.0.113.7/20000');
    expect(after('--tcp-ns')).toBe('none');
    expect(after('--udp-ns')).toBe('none');
    expect(argv).toContain('--no-map-gw');
  });

  it('hides /run, /tmp, the homes and the data directory; only the work directory is writable', () => {
    expect(pairs('--tmpfs')).toEqual(expect.arrayContaining(['/run', '/tmp', '/root', '/home', '/srv/data']));
    expect(pairs('--bind')).toEqual(['/srv/data/sessions/s1/work']);
    expect(pairs('--ro-bind')).toEqual(['/', '/opt/game']);
    // The data directory is hidden after the read-only binds and before the work directory is bound.
    expect(argv.indexOf('/srv/data')).toBeGreaterThan(argv.indexOf('/opt/game'));
    expect(argv.indexOf('--bind')).toBeGreaterThan(argv.indexOf('/srv/data'));
    expect(argv).toEqual(expect.arrayContaining(['--unshare-pid', '--unshare-ipc', '--unshare-uts', '--die-with-parent']));
    expect(argv.at(-1)).toBe('--');
  });

  it('sets the open-file and file-size rlimits', () => {
    expect(argv).toEqual(expect.arrayContaining(['--nofile=512', `--fsize=${1 << 20}`]));
  });

  it('shows an interpreter installed under a hidden directory by its prefix', () => {
    const prefix = mkdtempSync('/tmp/node-prefix-');
    try {
      mkdirSync(join(prefix, 'bin'));
      writeFileSync(join(prefix, 'bin', 'node'), '');
      expect(hiddenPrefixOf(join(prefix, 'bin', 'node'))).toBe(prefix);
      expect(hiddenPrefixOf('/usr/bin/env')).toBeUndefined();
    } finally {
      rmSync(prefix, { recursive: true, force: true });
    }
  });
});
