/**
 * Node installed outside /usr (here: the npm registry's `node` package under the temp
 * directory, which the sandbox replaces with an empty one) still runs the echo image: the
 * sandbox binds the interpreter's prefix read-only.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testFleet, useService } from '../support/service.js';
import { hostPort, tcpExchange, udpExchange, waitForStatus } from '../support/sessions.js';

const NODE_VERSION = '24';
/** Shared by runs: installing takes a while, and the package is the same each time. */
const prefix = join(tmpdir(), `session-host-node-from-npm-${NODE_VERSION}`);
const npmNode = join(prefix, 'node_modules', 'node', 'bin', 'node');

function installNodeFromNpm(): void {
  if (existsSync(npmNode)) return;
  execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', prefix, `node@${NODE_VERSION}`], { stdio: 'ignore', timeout: 240_000 });
}

describe('the echo image with Node from the npm registry, outside /usr', () => {
  installNodeFromNpm();
  const service = useService(
    {},
    {
      fleet: testFleet((fleet) => {
        fleet.images[0]!.tags.latest!.command = [npmNode, './server/sample/echo-server.mjs'];
      }),
    },
  );

  it('runs in the sandbox and answers its players', async () => {
    expect(execFileSync(npmNode, ['--version'], { encoding: 'utf8' })).toMatch(new RegExp(`^v${NODE_VERSION}\\.`));
    const id = `npm-node-${process.pid}`;
    expect((await service.call('POST', '/session', { body: { id, location: 'local-a', image: 'echo' } })).status).toBe(201);
    const session = await waitForStatus(service.call, id, ['running', 'dead']);
    expect(session.status).toBe('running');
    expect(await udpExchange('127.0.0.1', hostPort(session, 'udp'), 'ping')).toBe(`echo ${id} ping`);
    expect(await tcpExchange('127.0.0.1', hostPort(session, 'tcp'), 'hello')).toBe(`echo ${id} hello`);
  });
});
