/**
 * `session-host admin reset-password`: a forgotten operator password replaced on the data
 * directory of a stopped service; the old one stops working, the new one signs in; a running
 * service's directory is refused, and so is an unknown email.
 */
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resetOperatorPassword } from '../../server/admin-reset.js';
import { startService, tempDataDir, TEST_ADMIN } from '../support/service.js';

const signIn = (url: string, password: string) =>
  fetch(`${url}/admin/api/auth`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: TEST_ADMIN.email, password }) });

// The data directory's store (SQLite), also in the PostgreSQL pass: holding that directory
// exclusively is what makes a running service refuse the reset.
const sqlite = { databaseUrl: undefined };

describe('admin reset-password', () => {
  it('replaces a forgotten password on a stopped service, generated or from ADMIN_PASSWORD', async () => {
    const dataDir = tempDataDir();
    try {
      let running = await startService({ dataDir, runtime: 'simulated', ...sqlite });
      const busy = await resetOperatorPassword({ DATA_DIR: dataDir, ADMIN_EMAIL: TEST_ADMIN.email });
      expect(busy).toMatchObject({ ok: false, message: expect.stringContaining('stop the service first') });
      await running.close({ keepData: true });

      const generated = await resetOperatorPassword({ DATA_DIR: dataDir, ADMIN_EMAIL: TEST_ADMIN.email });
      expect(generated).toMatchObject({ ok: true, email: TEST_ADMIN.email, generatedPassword: expect.any(String) });
      expect(await resetOperatorPassword({ DATA_DIR: dataDir, ADMIN_EMAIL: 'nobody@example.com' })).toMatchObject({ ok: false });

      // The service's config brings TEST_ADMIN's password, but an existing operator keeps the reset one.
      running = await startService({ dataDir, runtime: 'simulated', ...sqlite });
      expect((await signIn(running.url, TEST_ADMIN.password)).status).toBe(401);
      expect((await signIn(running.url, (generated as { generatedPassword: string }).generatedPassword)).status).toBe(200);
      await running.close({ keepData: true });

      const chosen = await resetOperatorPassword({ DATA_DIR: dataDir, ADMIN_EMAIL: TEST_ADMIN.email, ADMIN_PASSWORD: 'a-chosen-password-1' });
      expect(chosen).toEqual({ ok: true, email: TEST_ADMIN.email });
      running = await startService({ dataDir, runtime: 'simulated', ...sqlite });
      expect((await signIn(running.url, 'a-chosen-password-1')).status).toBe(200);
      await running.close({ keepData: true });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
