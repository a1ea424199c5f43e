import type { z } from 'zod';

/**
 * Reads one socket message (JSON text) with its schema: the message, or null when the text is
 * not JSON or does not fit. Depends on zod only, so the SDK can compile it in.
 */
export function parseJsonMessage<S extends z.ZodType>(schema: S, raw: string): z.infer<S> | null {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return null;
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : null;
}
