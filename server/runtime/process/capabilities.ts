/** This process's Linux capabilities, read from /proc. */
import { readFileSync } from 'node:fs';

/** Whether this process holds `capability` (a bit of CapEff), read from /proc (`status`: tests give their own); unknown counts as no. */
export function hasCapability(capability: bigint, status = '/proc/self/status'): boolean {
  try {
    const capabilities = BigInt(`0x${/^CapEff:\s*([0-9a-f]+)$/m.exec(readFileSync(status, 'utf8'))![1]}`);
    return ((capabilities >> capability) & 1n) === 1n;
  } catch {
    return false;
  }
}
