/**
 * `session-host sessions logs` on a terminal shows a game's control characters instead of letting
 * the terminal act on them (outside check 7: OSC 52 set the clipboard, ESC [2J cleared the screen).
 */
import { describe, expect, it, vi } from 'vitest';
import { fields, json, reportError, table } from '../../client/cli/output.js';
import { terminalSafe, terminalSafeJson, terminalSafeLine, terminalSafeWriter } from '../../client/cli/terminal-safe.js';
import { toApiError } from '../../client/errors.js';

describe('terminal-safe logs', () => {
  it('shows escapes, bells, C1 controls and lone carriage returns as text; keeps newlines, tabs and CRLF', () => {
    const hostile = 'before\u001b]52;c;ZWNobyBwd25lZA==\u0007\u001b[2J\u009b31mred\rover\tafter\r\nnext\n';
    expect(terminalSafe(hostile)).toBe('before\\x1b]52;c;ZWNobyBwd25lZA==\\x07\\x1b[2J\\x9b31mred\\x0dover\tafter\r\nnext\n');
    expect(terminalSafe('héllo wörld ✓\n')).toBe('héllo wörld ✓\n');
  });

  it('decodes UTF-8 split across chunks and judges a CR at a chunk end by what follows', () => {
    const out: string[] = [];
    const writer = terminalSafeWriter((text) => out.push(text));
    const bytes = Buffer.from('✓ line\r\nnext\r');
    writer.write(bytes.subarray(0, 1));
    writer.write(bytes.subarray(1, 8));
    writer.write(bytes.subarray(8, 9));
    writer.write(bytes.subarray(9));
    writer.end();
    expect(out.join('')).toBe('✓ line\r\nnext\\x0d');
  });
});

// Outside check 9 (F5): what the CLI prints besides logs (labels, token names, error messages) is someone else's text too.
describe('terminal-safe tables, fields, JSON and errors', () => {
  const hostile = 'evil\u001b]0;PWNED\u0007\u001b[2J\u009b1m\nforged\trow';
  const defused = 'evil\\x1b]0;PWNED\\x07\\x1b[2J\\x9b1m\\x0aforged\\x09row';

  it('shows every control character of a cell or field as text, newlines and tabs too, and aligns the columns after', () => {
    expect(terminalSafeLine(hostile)).toBe(defused);
    expect(table(['NAME', 'STATUS'], [[hostile, 'active'], ['ok', 'active']])).toBe(
      [`NAME${' '.repeat(defused.length - 4)}  STATUS`, `${defused}  active`, `ok${' '.repeat(defused.length - 2)}  active`].join('\n'),
    );
    expect(fields([['name', hostile], ['labels', { [hostile]: 'v' }]])).toBe(`name:   ${defused}\nlabels: {"evil\\u001b]0;PWNED\\u0007\\u001b[2J\\x9b1m\\nforged\\trow":"v"}`);
  });

  it('escapes in JSON what JSON.stringify leaves raw (DEL, C1), keeping the value', () => {
    const text = json({ name: hostile, del: '\u007f' });
    expect(text).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(JSON.parse(text)).toEqual({ name: hostile, del: '\u007f' });
    expect(terminalSafeJson('"\u009b"')).toBe('"\\u009b"');
  });

  it('shows the control characters of an error message and its violations as text', () => {
    const written: string[] = [];
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => written.push(String(chunk)) > 0);
    try {
      const body = { code: 'INVALID_REQUEST', statusCode: 422, message: `bad ${hostile}`, identifier: 'f'.repeat(32), violations: [{ field: `labels.${hostile}`, description: hostile }] };
      reportError(toApiError(body as never, new Response(null, { status: 422 })), false);
      reportError(new Error(`boom ${hostile}`), false);
    } finally {
      stderr.mockRestore();
    }
    expect(written.join('')).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(written.join('')).toContain('\\x1b]0;PWNED\\x07');
  });
});
