import { describe, expect, it } from 'vitest';
import { accountScopes, allScopes, missingScopes, scopesBeyondAccount, ungrantableScopes, type Scope } from '../../server/domain/scopes.js';

const set = (...scopes: Scope[]) => new Set<Scope>(scopes);

describe('scope rules', () => {
  it('lists the scopes named by the spec', () => {
    expect(allScopes).toEqual([
      'session:start', 'session:read', 'session:stop', 'logs:read', 'artifact:read',
      'regions:read', 'events:write', 'token:write', 'webhook:repohost', 'metrics:read',
    ]);
  });

  it('keeps metrics:read (the whole service\'s metrics) to operator accounts', () => {
    expect(accountScopes(true)).toEqual(allScopes);
    expect(accountScopes(false)).toEqual(allScopes.filter((scope) => scope !== 'metrics:read'));
    expect(scopesBeyondAccount(false, ['session:read', 'metrics:read'])).toEqual(['metrics:read']);
    expect(scopesBeyondAccount(true, ['session:read', 'metrics:read'])).toEqual([]);
  });

  it('finds the required scopes a token lacks', () => {
    expect(missingScopes(set('session:read'), ['session:read'])).toEqual([]);
    expect(missingScopes(set('session:read'), ['session:start', 'session:read'])).toEqual(['session:start']);
    expect(missingScopes(set(), [])).toEqual([]);
  });

  it('lets a token grant only scopes it holds', () => {
    expect(ungrantableScopes(set('session:read', 'token:write'), ['session:read'])).toEqual([]);
    expect(ungrantableScopes(set('session:read', 'token:write'), ['session:start', 'logs:read'])).toEqual([
      'session:start',
      'logs:read',
    ]);
  });

  it('lets a token:write holder grant webhook:repohost, and nobody else', () => {
    expect(ungrantableScopes(set('token:write'), ['webhook:repohost'])).toEqual([]);
    expect(ungrantableScopes(set('session:start'), ['webhook:repohost'])).toEqual(['webhook:repohost']);
  });
});
