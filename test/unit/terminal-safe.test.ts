/**
 * `session-host sessions logs` on a terminal shows a game's control characters instead of letting
 * the terminal act on them (outside check 7: OSC 52 set the clipboard, ESC [2J cleared the screen).
 */
import { describe, expect, it } from 'vitest';
import { terminalSafe, terminalSafeWriter } from '../../client/cli/terminal-safe.js';

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
