/**
 * A copy of `text` holding only its own characters, for a string kept for as long as a connection
 * lives. V8 may keep a string as a view: a concatenation keeps its parts (Node's `randomUUID`
 * answers one built of 16 pieces, about 760 bytes of heap for 36 characters) and a slice keeps
 * the whole string it was cut from. For well-formed text (ids, tokens): lone surrogates would
 * come back replaced.
 */
export function ownString(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}
