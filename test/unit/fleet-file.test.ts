import { describe, expect, it } from 'vitest';
import { defaultFleet, FleetConfigError, parseFleet } from '../../server/config/fleet.js';

const parse = (fleet: unknown) => () => parseFleet(JSON.stringify(fleet), 'fleet.json');
const echo = defaultFleet.images[0]!;

describe('the fleet file', () => {
  it('loads the default fleet as written', () => {
    expect(parse(defaultFleet)()).toEqual(defaultFleet);
  });

  it('refuses null for a field that may only be left out, naming where', () => {
    const fleet = { ...defaultFleet, images: [{ ...echo, limits: null, accounts: null }] };
    expect(parse(fleet)).toThrow(FleetConfigError);
    expect(parse(fleet)).toThrow('fleet.json: /images/0/limits must not be null (leave it out); /images/0/accounts must not be null (leave it out)');
  });

  it('refuses what the schema does not know and values out of range', () => {
    expect(parse({ ...defaultFleet, extra: true })).toThrow('/ must NOT have additional properties');
    const tag = { ...echo.tags.latest!, readiness: 'soon' };
    expect(parse({ ...defaultFleet, images: [{ ...echo, tags: { latest: tag } }] })).toThrow('/images/0/tags/latest/readiness must be equal to one of the allowed values');
    expect(parse({ ...defaultFleet, runtime: { ...defaultFleet.runtime, stopGraceSeconds: -1 } })).toThrow('/runtime/stopGraceSeconds must be >= 0');
    expect(parse({ ...defaultFleet, runtime: { ...defaultFleet.runtime, allowedNetworks: ["10.20.0.0/24", "10.1.2.3/99", "backend"] } })).toThrow("runtime.allowedNetworks: 10.1.2.3/99, backend not CIDRs");
    expect(parse({ ...defaultFleet, runtime: { ...defaultFleet.runtime, retentionMb: -1 } })).toThrow("/runtime/retentionMb must be >= 0");
  });

  it('takes warm pools of a location, image and tag it has, once each, and refuses the rest', () => {
    const pool = { location: 'local-a', image: 'echo', tag: 'latest', warm: 4, env: { MAP: 'dust' } };
    expect(parse({ ...defaultFleet, pools: [pool] })().pools).toEqual([pool]);
    expect(parse({ ...defaultFleet, pools: [{ ...pool, warm: -1 }] })).toThrow('/pools/0/warm must be >= 0');
    expect(parse({ ...defaultFleet, pools: [pool, pool] })).toThrow('pool local-a/echo:latest appears twice');
    expect(parse({ ...defaultFleet, pools: [{ ...pool, location: 'mars' }] })).toThrow('pool mars/echo:latest: no location mars');
    expect(parse({ ...defaultFleet, pools: [{ ...pool, tag: 'v9' }] })).toThrow('pool local-a/echo:v9: no image echo with tag v9 in the fleet file');
    expect(parse({ ...defaultFleet, pools: [{ ...pool, env: { SESSION_ID: 'x' } }] })).toThrow('pool local-a/echo:latest: env SESSION_ID is not allowed');
  });
});
