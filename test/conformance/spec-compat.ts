/**
 * The versioning rule: paths stay unversioned, so a breaking change to the contract needs a new
 * major `info.version`. Compares the bundled spec with the newest released one
 * (spec/released/<version>.yaml, a bundled snapshot taken at each release) with openapi-diff.
 * Run directly (`npm test` does) it exits non-zero on a breaking change within one major version.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import openapiDiff from 'openapi-diff';
import { parse } from 'yaml';

export interface Compatibility {
  released: string;
  current: string;
  breaking: string[];
  ok: boolean;
}

const major = (version: string) => Number(version.split('.')[0]);

export async function checkCompatibility(releasedText: string, currentText: string): Promise<Compatibility> {
  const released = parse(releasedText).info.version as string;
  const current = parse(currentText).info.version as string;
  const result = await openapiDiff.diffSpecs({
    sourceSpec: { content: releasedText, location: `released ${released}`, format: 'openapi3' },
    destinationSpec: { content: currentText, location: `current ${current}`, format: 'openapi3' },
  });
  const breaking = result.breakingDifferencesFound
    ? result.breakingDifferences.map((d) => `${d.code} at ${d.sourceSpecEntityDetails.map((e) => e.location).join(', ') || d.destinationSpecEntityDetails.map((e) => e.location).join(', ')}`)
    : [];
  return { released, current, breaking, ok: breaking.length === 0 || major(current) > major(released) };
}

export function newestReleased(dir = 'spec/released'): string {
  const versions = readdirSync(dir)
    .filter((f) => /^\d+\.\d+\.\d+\.yaml$/.test(f))
    .map((f) => f.slice(0, -5))
    .sort((a, b) => {
      const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
      return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
    });
  return `${dir}/${versions.at(-1)}.yaml`;
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  const releasedPath = newestReleased();
  const result = await checkCompatibility(readFileSync(releasedPath, 'utf8'), readFileSync('generated/openapi.yaml', 'utf8'));
  console.log(`spec ${result.current} against released ${result.released} (${releasedPath}): ${result.breaking.length} breaking difference(s)`);
  for (const line of result.breaking) console.log(`  ${line}`);
  if (!result.ok) console.log(`breaking changes need a new major version (info.version is ${result.current})`);
  process.exit(result.ok ? 0 : 1);
}
