import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { canTransition, isFinal, liveStatuses, transitions } from '../../server/domain/session-states.js';

describe('the session state machine', () => {
  it("is the table written in the spec's SessionStatus description", () => {
    const spec = parse(readFileSync('generated/openapi.yaml', 'utf8'));
    const status = spec.components.schemas.SessionStatus;
    const rows = (status.description as string)
      .split('\n')
      .filter((line) => /^\| [a-z_]+ \|/.test(line))
      .map((line) => line.split('|').map((cell) => cell.trim()).filter(Boolean))
      .filter(([from]) => from !== 'from');
    const fromSpec = Object.fromEntries(rows.map(([from, to]) => [from, to!.split(', ')]));
    const fromCode = Object.fromEntries(Object.entries(transitions).filter(([, to]) => to.length > 0));
    expect(fromSpec).toEqual(fromCode);
    expect(status.enum).toEqual(Object.keys(transitions));
  });

  it('has exited and dead as its only final states', () => {
    expect(Object.keys(transitions).filter((s) => isFinal(s as never))).toEqual(['exited', 'dead']);
    expect(liveStatuses).not.toContain('exited');
  });

  it('allows the documented paths and nothing else', () => {
    expect(canTransition('created', 'running')).toBe(true);
    expect(canTransition('created', 'shuttingdown')).toBe(true);
    expect(canTransition('running', 'draining')).toBe(true);
    expect(canTransition('running', 'exited')).toBe(false);
    expect(canTransition('created', 'draining')).toBe(false);
    expect(canTransition('exited', 'running')).toBe(false);
    expect(canTransition('dead', 'running')).toBe(false);
    expect(canTransition('draining', 'running')).toBe(false);
  });
});
