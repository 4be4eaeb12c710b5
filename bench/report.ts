/** The printed table: one row per measured figure, with its reference and target. */

export interface Row {
  scenario: string;
  /** What is measured, e.g. `req/s vs bare`. */
  metric: string;
  ours: string;
  /** The comparison figure(s): bare, Prism or floor. */
  reference: string;
  ratio: string;
  target: string;
  /** Whether the target is met; null for rows that only inform. */
  met: boolean | null;
}

export interface ScenarioResult {
  rows: Row[];
  /** Raw numbers for results.json. */
  raw: unknown;
}

export interface BenchOptions {
  /** Length of each measured load run, after a warm-up. */
  durationSeconds: number;
  warmupSeconds: number;
  logLevel: string;
  cpuProfileDir: string | undefined;
}

const HEADERS = ['scenario', 'metric', 'ours', 'reference', 'ratio', 'target', 'met?'] as const;

export function formatTable(rows: readonly Row[]): string {
  const cells = rows.map((r) => [r.scenario, r.metric, r.ours, r.reference, r.ratio, r.target, r.met === null ? '' : r.met ? 'yes' : 'NO']);
  const widths = HEADERS.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (values: readonly string[]) => values.map((v, i) => v.padEnd(widths[i]!)).join(' | ').trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('-|-');
  const out = [line(HEADERS), rule];
  let previous = '';
  for (const row of cells) {
    // A rule between scenarios keeps the table scannable.
    const scenario = row[0]!.split(' ')[0]!;
    if (previous && scenario !== previous) out.push(rule);
    previous = scenario;
    out.push(line(row));
  }
  return out.join('\n');
}
