import { z } from 'zod';
import { OP_MODES } from './constants.js';

/**
 * The values that travel on the sockets and in the REST answers alike: op mode, status and prop
 * values, log lines. Depends on zod and the constants only, so the SDK can compile it in.
 */

/** The op mode of an exhibit. */
export const OpModeSchema = z.enum(OP_MODES);

/** A status value an exhibit reports (text, an integer, a date or a colour as text), or none. */
export const StatusValueSchema = z.union([z.string(), z.number(), z.null()]);
export type StatusValue = z.infer<typeof StatusValueSchema>;

/** A prop value a board reports or is sent. */
export const PropValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type PropValue = z.infer<typeof PropValueSchema>;

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A date-time as an ISO 8601 string with its offset (`2026-11-23T10:00:00.000Z`). */
export const IsoDateTime = z.iso.datetime({ offset: true });

/** One log line as consoles receive it live, for exhibits and boards alike. */
export const LogLineSchema = z.object({
  level: z.enum(LOG_LEVELS),
  /** What was logged; often JSON text. */
  message: z.string(),
  /** What kind of entry: the level for an SDK logger line; firmware, online… for what the server records. */
  eventType: z.string(),
  /** When it happened. */
  createdAt: IsoDateTime,
});
export type LogLine = z.infer<typeof LogLineSchema>;
