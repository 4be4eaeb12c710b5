/**
 * The deployment itself: PostgreSQL, three instances and HAProxy on deploy/haproxy.cfg, all
 * started here. HAProxy routes by /readyz; an instance SIGKILLed under a stream of requests is
 * taken out without one request failing (a refused connection goes to another instance), and
 * put back when it is started again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.mjs';
import { testFleet } from '../support/service.js';
import { startDeployment, type Deployment } from '../support/cluster/deployment.js';
import { clusterTestsMissing } from '../support/cluster/haproxy.js';

const missing = clusterTestsMissing();
describe.skipIf(missing)(`three instances behind HAProxy${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let deployment: Deployment;
  const get = (path: string) => fetch(deployment.url + path, { headers: { Authorization: `Bearer ${deployment.token}` } });

  beforeAll(async () => {
    deployment = await startDeployment({ instances: 3, fleet: testFleet(), env: { RUNTIME: 'simulated' } });
  });
  afterAll(async () => {
    await deployment?.stop();
  });

  it('routes to every instance once its /readyz answers 200', async () => {
    expect(await deployment.haproxy!.states()).toEqual({ instance1: 'UP', instance2: 'UP', instance3: 'UP' });
    for (let i = 0; i < 6; i++) expect((await get('/account')).status).toBe(200);
    expect((await fetch(`${deployment.url}/readyz`)).status).toBe(200);
  });

  it('takes a SIGKILLed instance out without a failed request, and puts it back once it is started again', async () => {
    const victim = deployment.instances[1]!;
    let running = true;
    const answers: number[] = [];
    const load = (async () => {
      // A failed request (no answer at all) counts as status 0.
      while (running) answers.push(await get('/account').then((r) => r.status, () => 0));
    })();
    await eventually(() => answers.length > 20, { what: 'requests flowing' });
    await victim.kill('SIGKILL');
    const states = await eventually(() => deployment.haproxy!.states(), {
      until: (s) => s.instance2 === 'DOWN',
      what: 'HAProxy marking the killed instance down',
    });
    expect(states).toMatchObject({ instance1: 'UP', instance3: 'UP' });
    const atDown = answers.length;
    await eventually(() => answers.length > atDown + 20, { what: 'requests after the kill' });
    running = false;
    await load;
    expect(answers.filter((status) => status !== 200)).toEqual([]);
    await victim.start();
    await eventually(() => deployment.haproxy!.states(), { until: (s) => s.instance2 === 'UP', what: 'the instance back in' });
  });
});
