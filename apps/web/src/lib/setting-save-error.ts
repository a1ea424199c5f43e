import { ApiError } from './api-client';

/** Why the server refused one setting: its words, and the part of a structured value they are about (null: the whole value). */
export type SettingSaveError = { field: string | null; text: string };

/**
 * Reads a refused setting save. The server answers `response` as its message, prefixed
 * `value.<field>: ` when it is about one part of a JSON config (`value: ` for the whole value);
 * the prefix names the input, and the rest, from a capital, is what that input shows.
 */
export function settingSaveError(reason: unknown): SettingSaveError {
  const message = reason instanceof ApiError ? (reason.response ?? reason.message) : reason instanceof Error ? reason.message : '';
  if (!message) return { field: null, text: 'This setting could not be saved.' };
  const match = /^value(?:\.([\w.]+))?: (.+)$/s.exec(message);
  if (!match) return { field: null, text: message };
  const text = match[2]!;
  return { field: match[1] ?? null, text: text.charAt(0).toUpperCase() + text.slice(1) };
}
