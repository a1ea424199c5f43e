/** How many characters of a JSON message its one-line summary shows. */
export const SUMMARY_CHARS = 120;

/** A log message as the logs view shows it: JSON pretty-printed under a one-line summary, else its text. */
export type ReadableMessage = { kind: 'json'; summary: string; pretty: string } | { kind: 'text'; text: string };

/**
 * Reads a log message: an object or an array written as JSON becomes a summary (its compact form,
 * cut at SUMMARY_CHARS) and a pretty-printed body; anything else (plain text, a bare JSON string or
 * number, broken JSON) stays the text it is. Nothing here is ever treated as HTML.
 */
export function readMessage(message: string): ReadableMessage {
  const trimmed = message.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (parsed !== null && typeof parsed === 'object') {
        const compact = JSON.stringify(parsed);
        const summary = compact.length > SUMMARY_CHARS ? `${compact.slice(0, SUMMARY_CHARS - 1)}…` : compact;
        return { kind: 'json', summary, pretty: JSON.stringify(parsed, null, 2) };
      }
    } catch {
      // Not JSON after all: shown as text.
    }
  }
  return { kind: 'text', text: message };
}
