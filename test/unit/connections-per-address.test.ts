/**
 * The per-address connection cap counts each client address's open sockets (IPv6 by /64), frees
 * a slot when one closes, and never counts a trusted proxy's (it carries everyone's requests).
 * Sockets here are their two parts the cap reads: an address and a close event (the HTTP tier,
 * test/api/request-limits.test.ts, holds real ones).
 */
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ConnectionsPerAddress } from '../../server/http/connections-per-address.js';

const socketFrom = (remoteAddress: string) => Object.assign(new EventEmitter(), { remoteAddress }) as unknown as Socket;

describe('connections per address', () => {
  it('refuses an address past its limit, reports it once, and admits it again once one of its sockets closes', () => {
    const reported: string[] = [];
    const limits = new ConnectionsPerAddress(2, [], (unit) => reported.push(unit));
    const [first, second] = [socketFrom('192.0.2.1'), socketFrom('192.0.2.1')];
    expect([limits.admit(first), limits.admit(second)]).toEqual([true, true]);
    expect([limits.admit(socketFrom('192.0.2.1')), limits.admit(socketFrom('::ffff:192.0.2.1'))]).toEqual([false, false]);
    expect(reported).toEqual(['192.0.2.1']);
    // Another address has its own count.
    expect(limits.admit(socketFrom('192.0.2.2'))).toBe(true);
    first.emit('close');
    expect(limits.admit(socketFrom('192.0.2.1'))).toBe(true);
    expect(limits.admit(socketFrom('192.0.2.1'))).toBe(false);
    // Reported again: it had been under its limit in between.
    expect(reported).toEqual(['192.0.2.1', '192.0.2.1']);
  });

  it('counts an IPv6 client by its /64, whose low bits it chooses', () => {
    const limits = new ConnectionsPerAddress(2);
    expect(['2001:db8:1:2::1', '2001:db8:1:2::ffff', '2001:db8:1:2:abcd::9'].map((a) => limits.admit(socketFrom(a)))).toEqual([true, true, false]);
    expect(limits.admit(socketFrom('2001:db8:1:3::1'))).toBe(true);
  });

  it('never counts a trusted proxy, by address or by network, IPv4-mapped or not', () => {
    const limits = new ConnectionsPerAddress(1, ['192.0.2.7', '198.51.100.0/24', '2001:db8::/32']);
    for (const proxy of ['192.0.2.7', '::ffff:192.0.2.7', '198.51.100.5', '2001:db8:5::1']) {
      expect([1, 2, 3].map(() => limits.admit(socketFrom(proxy))), proxy).toEqual([true, true, true]);
    }
    expect([1, 2].map(() => limits.admit(socketFrom('192.0.2.8')))).toEqual([true, false]);
  });
});
