/**
 * Text from elsewhere made safe for a terminal: its control characters shown as text (`\x1b`,
 * as `less` shows them without -R) instead of acted on, so an untrusted game cannot set the
 * studio's clipboard (OSC 52), retitle its window or clear its screen through
 * `session-host sessions logs`, nor can a label or a token name someone else chose through
 * `sessions show` or `tokens list` (outside check 9, F5). In a log, newlines, tabs and the
 * carriage return of a CRLF stay.
 */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/** Every C0 and C1 control and DEL: a table cell or a field stays on its line (a newline in a label cannot forge a row). */
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
/** What JSON.stringify leaves raw: DEL and the C1 controls (it escapes C0 itself). */
const RAW_IN_JSON = /[\u007f-\u009f]/g;

const shown = (character: string) => `\\x${character.charCodeAt(0).toString(16).padStart(2, '0')}`;

/** One line of a table or a field: every control character shown as text, newlines and tabs too. */
export function terminalSafeLine(text: string): string {
  return text.replace(ANY_CONTROL, shown);
}

/** JSON for a terminal: DEL and C1 controls escaped as `\u00XX` (still the same JSON value; C0 JSON.stringify escapes). */
export function terminalSafeJson(json: string): string {
  return json.replace(RAW_IN_JSON, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A log's text: control characters shown as text, its lines and tabs kept. */
export function terminalSafe(text: string): string {
  return text.replace(CONTROL, (character, offset: number, whole: string) =>
    character === '\r' && whole[offset + 1] === '\n' ? character : shown(character),
  );
}

/** `terminalSafe` over a byte stream: UTF-8 decoded across chunk ends, a CR kept back until what follows it is known. */
export function terminalSafeWriter(write: (text: string) => void): { write(chunk: Uint8Array): void; end(): void } {
  const decoder = new TextDecoder();
  let pending = '';
  const flush = (text: string, final: boolean) => {
    const all = pending + text;
    const keep = !final && all.endsWith('\r') ? 1 : 0;
    pending = all.slice(all.length - keep);
    if (all.length > keep) write(terminalSafe(all.slice(0, all.length - keep)));
  };
  return {
    write: (chunk) => flush(decoder.decode(chunk, { stream: true }), false),
    end: () => flush(decoder.decode(), true),
  };
}
