import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config/environment.js';

describe('secrets in the environment', () => {
  it('are removed from the environment once read, and still configure the service', () => {
    const env: NodeJS.ProcessEnv = {
      BOOTSTRAP_TOKEN: 'gsh_TestBootstrapToken0000000000000000000000',
      ADMIN_PASSWORD: 'a-long-enough-password',
      SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
      PORT: '0',
    };
    const config = loadConfig(env);
    expect(config.bootstrapToken).toBe('gsh_TestBootstrapToken0000000000000000000000');
    expect(config.admin.password).toBe('a-long-enough-password');
    expect(config.secretKey).toBe(Buffer.alloc(32, 7).toString('base64'));
    expect(env).toEqual({ PORT: '0' });
  });
});
