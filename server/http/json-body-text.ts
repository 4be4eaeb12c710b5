/**
 * The text of a JSON request body, or why it has none. JSON on the wire is UTF-8 (RFC 8259 §8.1):
 * bytes that are not were decoded with U+FFFD in their place and the start went on, so a label
 * or env value sent in Latin-1 (`M\xfcnchen`, declared `charset=iso-8859-1` or not) was kept
 * corrupted, silently. A body in another charset is 415; one that is not valid UTF-8 is 422.
 * US-ASCII is UTF-8's subset (what some HTTP libraries declare for plain JSON): taken, when its
 * bytes are ASCII.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { echoed, HttpFailure } from './errors.js';

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;
const UTF8 = new Set(['utf-8', 'utf8']);
const ASCII = new Set(['us-ascii', 'ascii']);

export function jsonBodyText(contentType: string | undefined, body: Buffer): string | HttpFailure {
  const charset = CHARSET.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && !UTF8.has(charset) && !ASCII.has(charset)) {
    return new HttpFailure('UNSUPPORTED_MEDIA_TYPE', { details: `charset ${echoed(charset)} is not supported: send the JSON as UTF-8` });
  }
  if (charset !== undefined && ASCII.has(charset) && !isAscii(body)) {
    return new HttpFailure('INVALID_REQUEST', { violations: [{ field: 'body', description: `is not ${charset} (declared): send the JSON as UTF-8` }] });
  }
  if (!isUtf8(body)) return new HttpFailure('INVALID_REQUEST', { violations: [{ field: 'body', description: 'is not valid UTF-8' }] });
  return body.toString('utf8');
}
