import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { decodeCursor } from '../../server/http/wire/paging.js';

const spec = parse(readFileSync('generated/openapi.yaml', 'utf8'));

describe("the spec's examples say what the service does", () => {
  it('shows the API-Version of this very description (Prism answers with it)', () => {
    expect(spec.components.headers.ApiVersion.schema.example).toBe(spec.info.version);
  });

  it('keeps Markdown out of the server descriptions (the reference shows them as plain text)', () => {
    for (const server of spec.servers) expect(server.description, server.url).not.toContain('`');
  });

  it('shows a cursor the service accepts', () => {
    expect(decodeCursor(spec.components.parameters.Cursor.example)).toBeDefined();
  });

  it('writes patterns with [0-9], which every regex dialect reads alike, not \\d', () => {
    const patterns = JSON.stringify(spec).match(/"pattern":"[^"]*"/g) ?? [];
    expect(patterns.length).toBeGreaterThan(0);
    for (const pattern of patterns) expect(pattern, pattern).not.toContain('\\\\d');
  });

  it('links what create operations make to the operations that use it', () => {
    const links = (path: string) => Object.values(spec.paths[path].post.responses['201'].links).map((link: any) => spec.components.links[link.$ref.split('/').pop()]?.operationId ?? link.operationId);
    expect(links('/session')).toEqual(['getSession', 'stopSession', 'getSessionLogs', 'downloadArtifacts']);
    expect(links('/token')).toEqual(['revokeToken']);
    expect(links('/subscription')).toEqual(['getSubscription', 'deleteSubscription', 'listDeliveries']);
  });
});
