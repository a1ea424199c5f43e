/** Lowercase and trim an email before it is stored or compared. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Setting-list item names and firmware names have double quotes and slashes stripped. */
export function stripQuotesAndSlashes(value: string): string {
  return value.replace(/["/\\]/g, '');
}

/** Case-insensitive substring match used by every search box. */
export function matchesSearch(haystack: string | null | undefined, needle: string): boolean {
  if (!needle) return true;
  return (haystack ?? '').toLowerCase().includes(needle.trim().toLowerCase());
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/** Any surrogate, paired or not. */
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * The text with what PostgreSQL cannot store (see unsafeTextProblem) replaced by U+FFFD: for text
 * the server writes itself (log records quoting something from elsewhere), where refusing is not
 * an option. Input from outside is refused instead (findUnsafeText).
 */
export function storableText(text: string): string {
  // Most text has no NUL and no surrogate (every prop change of a board logs a line): nothing is made for it.
  if (!text.includes('\u0000') && !SURROGATE.test(text)) return text;
  return text.replaceAll('\u0000', '\ufffd').replace(LONE_SURROGATES, '\ufffd');
}

/**
 * What is wrong with a string that cannot be stored, or null when it can. PostgreSQL refuses
 * the NUL character in `text` (invalid byte sequence 0x00) and in `jsonb` (`\u0000` cannot be
 * converted to text); a lone UTF-16 surrogate has no UTF-8 form, so `jsonb` refuses its escape
 * and `text` would silently turn it into U+FFFD.
 */
export function unsafeTextProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain a NUL character (\\u0000)';
  if (LONE_SURROGATE.test(text)) return 'must not contain a lone surrogate (text that is not valid Unicode)';
  return null;
}

/** Where an unsafe string sits in a value, and what is wrong with it. */
export type UnsafeText = {
  /** Object keys and array indexes from the root; empty when the value itself is the string. */
  path: (string | number)[];
  /** For people, without the text itself: `must not contain a NUL character (\u0000)`. */
  message: string;
};

type Visit = { value: unknown; key: string | number | null; parent: Visit | null };

function pathOf(visit: Visit): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Visit | null = visit; at && at.key !== null; at = at.parent) path.push(at.key);
  return path.reverse();
}

/** An object whose own keys hold data (parsed JSON, query and params objects), not binary or a date. */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !ArrayBuffer.isView(value) && !(value instanceof Date);
}

/**
 * Whether JSON text could parse to a string findUnsafeText refuses: only through a `\u` escape,
 * a raw NUL or a raw surrogate. When it answers false, the parsed value needs no walk (a hot
 * payload's common case); when true, findUnsafeText decides.
 */
export function mayHoldUnsafeText(jsonText: string): boolean {
  return ESCAPE_OR_SURROGATE.test(jsonText) || jsonText.includes('\u0000');
}
const ESCAPE_OR_SURROGATE = /\\u|[\uD800-\uDFFF]/;

/** findUnsafeText of a value parsed from `jsonText`, skipping the walk when the text cannot hold one. */
export function findUnsafeTextInJson(jsonText: string, value: unknown): UnsafeText | null {
  return mayHoldUnsafeText(jsonText) ? findUnsafeText(value) : null;
}

/**
 * The first string (or object key), in document order, of a JSON-like value that PostgreSQL
 * cannot store (see unsafeTextProblem); null when there is none. This is the one rule every
 * input goes through: REST params, query and body, both sockets and board messages. It walks
 * without recursion, so a deeply nested value cannot exhaust the stack.
 */
export function findUnsafeText(value: unknown): UnsafeText | null {
  const stack: Visit[] = [{ value, key: null, parent: null }];
  while (stack.length) {
    const visit = stack.pop()!;
    const keyProblem = typeof visit.key === 'string' ? unsafeTextProblem(visit.key) : null;
    if (keyProblem) return { path: pathOf(visit), message: keyProblem };
    const current = visit.value;
    if (typeof current === 'string') {
      const message = unsafeTextProblem(current);
      if (message) return { path: pathOf(visit), message };
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], key: i, parent: visit });
    } else if (isRecord(current)) {
      const keys = Object.keys(current);
      for (let i = keys.length - 1; i >= 0; i--) stack.push({ value: current[keys[i]!], key: keys[i]!, parent: visit });
    }
  }
  return null;
}

/**
 * A path as the API's validation errors name fields (`settings.2.default`); unsafe characters
 * in keys are written as JSON escapes, so the message itself stays storable and loggable.
 */
export function formatFieldPath(path: readonly (string | number)[], fallback = ''): string {
  if (!path.length) return fallback;
  return path.map((part) => (typeof part === 'number' ? String(part) : JSON.stringify(part).slice(1, -1))).join('.');
}

/** `field: message` for an unsafe string, as every validation error is worded. */
export function describeUnsafeText(unsafe: UnsafeText, fallback = 'value'): string {
  return `${formatFieldPath(unsafe.path, fallback)}: ${unsafe.message}`;
}
