/**
 * The one way tests wait for something that happens in the background: call `probe` until
 * `until` accepts its value (by default: until it is truthy), then return that value; after
 * `timeoutMs` fail with what was last seen. Plain JavaScript so the Dredd hooks (CommonJS) can
 * import it too; types in eventually.d.mts.
 */
export async function eventually(probe, { until = Boolean, timeoutMs = 15_000, intervalMs = 25, what = 'the condition' } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (until(value)) return value;
    if (Date.now() >= deadline) {
      throw new Error(`${what} did not happen within ${timeoutMs} ms; last seen: ${describe(value)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

function describe(value) {
  try {
    return JSON.stringify(value)?.slice(0, 500) ?? String(value);
  } catch {
    return String(value);
  }
}
