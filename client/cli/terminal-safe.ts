/**
 * A game server's output made safe for a terminal: its control characters shown as text (`\x1b`,
 * as `less` shows them without -R) instead of acted on, so an untrusted game cannot set the
 * studio's clipboard (OSC 52), retitle its window or clear its screen through
 * `session-host sessions logs`. Newlines, tabs and the carriage return of a CRLF stay.
 */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function terminalSafe(text: string): string {
  return text.replace(CONTROL, (character, offset: number, whole: string) =>
    character === '\r' && whole[offset + 1] === '\n' ? character : `\\x${character.charCodeAt(0).toString(16).padStart(2, '0')}`,
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
