/**
 * The control socket takes a backup into any directory it is told, as the service's user (root
 * for the sandboxed process runtime), so only that user may reach it. The data directory is not
 * 0700 there (the sandboxed runtime makes it 0711 for session uids to pass through), so the
 * socket's own mode was all that kept others out, and that follows the umask: under `umask 0`
 * any local user could connect.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTROL_SOCKET, listenControl } from '../../server/control.js';

const root = process.getuid?.() === 0;

/** Connect to a unix socket as `nobody`; what connect said. */
function connectAsNobody(path: string): string {
  const probe = `const s=require('net').connect(process.argv[1]);s.on('connect',()=>{console.log('connected');s.destroy()});s.on('error',e=>console.log(e.code))`;
  const run = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, '-e', probe, path], { encoding: 'utf8' });
  return run.stdout.trim() || run.stderr.trim();
}

describe('the control socket', () => {
  // Root only: it connects as `nobody` through setpriv.
  it.skipIf(!root)(`is reachable by the service user only, whatever the umask, in a data directory others may pass through${root ? '' : ' (skipped: needs root to connect as nobody)'}`, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'control-socket-'));
    chmodSync(dataDir, 0o711);
    const umask = process.umask(0);
    const server = await listenControl(dataDir, async () => ({ ok: false, error: 'test' })).finally(() => process.umask(umask));
    try {
      expect(connectAsNobody(join(dataDir, CONTROL_SOCKET))).toBe('EACCES');
    } finally {
      server.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
