import { describe, expect, it } from 'vitest';
import { refusedEnvNames } from '../../server/domain/env-names.js';

describe('environment names a caller may set', () => {
  it('accepts plain names, Gameye-style ones included', () => {
    expect(refusedEnvNames(['MAX_PLAYERS', 'my-secret', 'game.mode', '_private', 'path', 'Node_mode'])).toEqual([]);
  });

  it('refuses names that are not plain', () => {
    expect(refusedEnvNames(['a b', '1ST', '-x', '.x', 'a=b', 'é', ''])).toEqual(['a b', '1ST', '-x', '.x', 'a=b', 'é', '']);
  });

  it('refuses every name that hijacks an interpreter, the loader or the session identity', () => {
    const hijacks = [
      'BASH_ENV', 'ENV', 'BASH_FUNC_x%%', 'SHELLOPTS', 'IFS', 'LD_PRELOAD', 'LD_LIBRARY_PATH', 'GLIBC_TUNABLES', 'GCONV_PATH',
      'NODE_OPTIONS', 'NODE_PATH', 'PYTHONSTARTUP', 'PYTHONPATH', 'PERL5OPT', 'PERL5LIB', 'RUBYOPT', 'JAVA_TOOL_OPTIONS',
      '_JAVA_OPTIONS', 'OPENSSL_CONF', 'OPENSSL_ENGINES', 'PATH', 'SESSION_ID', 'PORT_GAME', 'PUBLIC_PORT_GAME',
    ];
    // BASH_FUNC_x%% is not even plain; the rest are plain but reserved.
    expect(refusedEnvNames(hijacks)).toEqual(hijacks);
  });

  it('does not refuse names that merely contain a reserved word', () => {
    expect(refusedEnvNames(['MY_PATH', 'ENVIRONMENT', 'GAME_NODE_COUNT', 'SERVER_PORT'])).toEqual([]);
  });

  it('with an image allowlist accepts exactly its names, never the session identity', () => {
    const allow = ['JAVA_TOOL_OPTIONS', 'MAP', 'SESSION_ID'];
    expect(refusedEnvNames(['JAVA_TOOL_OPTIONS', 'MAP', 'OTHER', 'SESSION_ID'], allow)).toEqual(['OTHER', 'SESSION_ID']);
  });
});
