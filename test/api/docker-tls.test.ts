/**
 * A TCP engine over mutual TLS. The engine is engine 1 of the test engines behind a TLS
 * terminator made here (it asks for and verifies a client certificate, then passes the bytes to
 * the engine's unix socket), with certificates made by openssl for this test.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:tls';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractFetch } from '../support/contract.js';
import { dockerFleet, engines, removeLeftovers, skipReason } from '../support/docker.js';
import { caller } from '../support/http.js';
import { startService, type RunningService } from '../support/service.js';
import { hostPort, tcpExchange, waitForStatus } from '../support/sessions.js';

/** A CA, a server certificate for 127.0.0.1 and a client certificate, as PEM files in `dir`. */
function makeCertificates(dir: string) {
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl('req', '-x509', ...key, '-keyout', 'ca-key.pem', '-out', 'ca.pem', '-subj', '/CN=test engine CA', '-days', '1');
  for (const [name, extension] of [['server', 'subjectAltName=IP:127.0.0.1'], ['client', 'extendedKeyUsage=clientAuth']] as const) {
    openssl('req', ...key, '-keyout', `${name}-key.pem`, '-out', `${name}.csr`, '-subj', `/CN=${name}`);
    writeFileSync(join(dir, `${name}.ext`), `${extension}\n`);
    openssl('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca-key.pem', '-CAcreateserial', '-out', `${name}.pem`, '-days', '1', '-extfile', `${name}.ext`);
  }
  return { ca: join(dir, 'ca.pem'), cert: join(dir, 'client.pem'), key: join(dir, 'client-key.pem') };
}

describe.skipIf(engines.length < 2)(`docker engine over mutual TLS${engines.length < 2 ? ` (skipped: ${skipReason})` : ''}`, () => {
  const contract = contractFetch();
  let dir: string;
  let proxy: Server;
  let port: number;
  let tls: { ca: string; cert: string; key: string };
  let running: RunningService;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engine-tls-'));
    tls = makeCertificates(dir);
    const read = (name: string) => readFileSync(join(dir, name));
    proxy = createServer({ key: read('server-key.pem'), cert: read('server.pem'), ca: read('ca.pem'), requestCert: true, rejectUnauthorized: true }, (socket) => {
      const engine = connect(engines[0]!.slice('unix://'.length));
      socket.pipe(engine).pipe(socket);
      for (const end of [socket, engine]) end.on('error', () => (socket.destroy(), engine.destroy()));
    });
    proxy.on('tlsClientError', () => {});
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    port = (proxy.address() as { port: number }).port;
    const fleet = dockerFleet((f) => {
      const node = f.locations[0]!.nodes[0]!;
      f.locations = [{ id: 'dock-tls', ips: ['127.0.0.1'], nodes: [{ ...node, id: 'dock-tls-1', docker: { engine: `tcp://127.0.0.1:${port}`, tls, publishIp: '127.0.0.1' } }] }];
    });
    running = await startService({}, { fleet });
  });

  afterAll(async () => {
    await running?.close();
    proxy?.close();
    await removeLeftovers('dt-');
    rmSync(dir, { recursive: true, force: true });
    expect(contract.violations).toEqual([]);
  });

  it('runs a session through the engine with the client certificate; without one the engine is unreachable', async () => {
    const call = caller(running.url, running.token, contract);
    const id = `dt-${Math.random().toString(36).slice(2, 10)}`;
    expect((await call('POST', '/session', { body: { id, location: 'dock-tls', image: 'echo' } })).status).toBe(201);
    const session = await waitForStatus(call, id, ['running'], 30_000);
    // A remote engine's readiness is a connect to the published port, which Docker's proxy may
    // accept before the game server listens (see the README): the first exchange may be reset.
    const exchange = () => tcpExchange(session.host, hostPort(session, 'tcp'), 'over tls').catch((error: Error) => error.message);
    await expect.poll(exchange, { timeout: 10_000 }).toBe(`echo ${id} over tls`);
    expect((await call('DELETE', `/session/${id}`)).status).toBe(204);
    await waitForStatus(call, id, ['exited'], 30_000);

    const anonymous = new Docker({ host: '127.0.0.1', port, protocol: 'https', ca: readFileSync(tls.ca) });
    await expect(anonymous.ping()).rejects.toThrow();
    await expect(new Docker({ host: '127.0.0.1', port, protocol: 'http' }).ping()).rejects.toThrow();
  });
});
