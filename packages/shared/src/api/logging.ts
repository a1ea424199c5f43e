import { z } from 'zod';
import { Id } from './common.js';
import { LOG_LEVELS, LogLineSchema, type LogLevel } from '../values.js';

/**
 * Logs and reports (spec 7.3; issue "Logs and reports"): the paged log history of an exhibit or a
 * board, its CSV, the live-log lease, and the report charts. Times in queries are epoch
 * milliseconds; answers carry ISO date-times.
 */

/** Log page size (spec 9). */
export const LOGS_PER_PAGE = 20;
/** The largest page a caller may ask for. */
export const MAX_LOGS_PER_PAGE = 500;
/** How long one live-log lease lasts; the console renews it every LIVE_LOG_RENEW_MS (spec 9). */
export const LIVE_LOG_LEASE_MS = 60_000;
export const LIVE_LOG_RENEW_MS = 58_000;
/** The exhibit report intervals the console offers, in seconds (spec 9). */
export const REPORT_INTERVALS = [
  { label: '1m', seconds: 60 },
  { label: '10m', seconds: 600 },
  { label: '30m', seconds: 1800 },
  { label: '1hr', seconds: 3600 },
  { label: '4hr', seconds: 14_400 },
  { label: '1d', seconds: 86_400 },
] as const;
/** The most buckets one report may have (a range over an interval). */
export const MAX_REPORT_BUCKETS = 5000;
/** The hardware report's window, in days (spec 9). */
export const HARDWARE_REPORT_DAYS = 14;

/** Epoch milliseconds in a query string. */
export const EpochMs = z.coerce
  .number({ message: 'must be a time in milliseconds' })
  .int({ message: 'must be a whole number of milliseconds' })
  .min(0, { message: 'must be a time in milliseconds' })
  .max(8_640_000_000_000_000, { message: 'must be a time in milliseconds' });

/** `debug,info` in a query string: the levels to show (all when absent, none when empty). */
export const LevelsParam = z
  .string()
  .max(100)
  .transform((text, ctx): LogLevel[] => {
    const words = text.split(',').map((w) => w.trim()).filter(Boolean);
    const unknown = words.filter((w) => !(LOG_LEVELS as readonly string[]).includes(w));
    if (unknown.length) ctx.addIssue({ code: 'custom', message: `must be levels among ${LOG_LEVELS.join(', ')}` });
    return [...new Set(words)] as LogLevel[];
  });

/** A time zone the viewer's buckets follow (IANA name, e.g. Europe/Amsterdam). */
export const TimeZoneParam = z
  .string()
  .max(64)
  .refine(
    (zone) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    },
    { message: 'must be a time zone such as Europe/Amsterdam' },
  );

const rangeRefinement = <T extends { start: number; end: number }>(query: T, ctx: z.RefinementCtx) => {
  if (query.end < query.start) ctx.addIssue({ code: 'custom', path: ['end'], message: 'must not be before start' });
};

const LogPageFields = {
  start: EpochMs,
  end: EpochMs,
  pageIdx: z.coerce.number({ message: 'must be a page number' }).int({ message: 'must be a whole page number' }).min(0).max(1_000_000).default(0),
  logsPerPage: z.coerce.number({ message: 'must be a number of logs' }).int().min(1).max(MAX_LOGS_PER_PAGE).default(LOGS_PER_PAGE),
  /** The levels to show; all when absent. */
  levels: LevelsParam.optional(),
};

/** GET /logging/exhibit */
export const ExhibitLogsQuery = z.object({ exhibitId: Id, ...LogPageFields }).superRefine(rangeRefinement);
/** GET /logging/hardware */
export const HardwareLogsQuery = z.object({ hardwareId: Id, ...LogPageFields }).superRefine(rangeRefinement);

/** One stored log entry: the live line's fields, its id and its time in milliseconds. */
export const LogEntrySchema = LogLineSchema.extend({
  id: z.string(),
  /** createdAt in epoch milliseconds. */
  timestamp: z.number(),
});
export type LogEntry = z.infer<typeof LogEntrySchema>;

/** One page of logs, newest first, and how many match in all. */
export const LogPageSchema = z.object({ logs: z.array(LogEntrySchema), numLogs: z.number().int() });
export type LogPage = z.infer<typeof LogPageSchema>;

/** GET /logging/exhibit/csv and /logging/hardware/csv: the device's id and the range. */
export const LogCsvQuery = z.object({ id: Id, start: EpochMs, end: EpochMs }).superRefine(rangeRefinement);

/** The CSV's columns (spec 7.3), as the JSON answer carries each row. */
export const LogCsvRowSchema = z.object({ datetime: z.string(), data: z.string(), event_type: z.string() });
export type LogCsvRow = z.infer<typeof LogCsvRowSchema>;
export const LogCsvSchema = z.object({ logs: z.array(LogCsvRowSchema) });
export const LOG_CSV_COLUMNS = ['datetime', 'data', 'event_type'] as const;

/** POST /logging/exhibit/live */
export const ExhibitLiveLogBody = z.object({ exhibitId: Id, enabled: z.boolean() });
/** POST /logging/hardware/live */
export const HardwareLiveLogBody = z.object({ hardwareId: Id, enabled: z.boolean() });
/** The lease: until when this caller's live log stays on (null once off). */
export const LiveLogLeaseSchema = z.object({ enabled: z.boolean(), expiresAt: z.string().nullable() });
export type LiveLogLease = z.infer<typeof LiveLogLeaseSchema>;

/** GET /reporting/exhibit/report */
export const ExhibitReportQuery = z
  .object({
    exhibitId: Id,
    start: EpochMs,
    end: EpochMs,
    /** Bucket width in seconds. */
    interval: z.coerce.number({ message: 'must be a number of seconds' }).int({ message: 'must be a whole number of seconds' }).min(60).max(31 * 86_400),
    /** `value`: Events by Value (one dataset per value) instead of Total Events (one per event name). */
    filter: z.enum(['value']).optional(),
    timeZone: TimeZoneParam.default('UTC'),
  })
  .superRefine((query, ctx) => {
    rangeRefinement(query, ctx);
    if ((query.end - query.start) / 1000 / query.interval > MAX_REPORT_BUCKETS) {
      ctx.addIssue({ code: 'custom', path: ['interval'], message: `gives more than ${MAX_REPORT_BUCKETS} buckets over this range; choose a longer interval` });
    }
  });

/** GET /reporting/hardware/report */
export const HardwareReportQuery = z
  .object({ hardwareId: Id, start: EpochMs, end: EpochMs, timeZone: TimeZoneParam.default('UTC') })
  .superRefine((query, ctx) => {
    rangeRefinement(query, ctx);
    if (query.end - query.start > (HARDWARE_REPORT_DAYS + 1) * 86_400_000) {
      ctx.addIssue({ code: 'custom', path: ['end'], message: `must be at most ${HARDWARE_REPORT_DAYS} days after start` });
    }
  });

/** A chart: the bucket starts (ISO date-times) and one dataset per event name or value. */
export const ReportSchema = z.object({
  labels: z.array(z.string()),
  datasets: z.array(z.object({ label: z.string(), data: z.array(z.number()) })),
});
export type Report = z.infer<typeof ReportSchema>;
export const ReportAnswerSchema = z.object({ report: ReportSchema });

/**
 * The event types of what the server records about a device (its own lines carry their level as
 * their event type). The hardware report counts these per day.
 */
export const EXHIBIT_EVENT_TYPES = ['online', 'offline', 'opMode', 'control', 'setting', 'manifest', 'token', 'schedule', 'file', 'hardware'] as const;
export const HARDWARE_EVENT_TYPES = ['online', 'offline', 'reboot', 'command', 'debug', 'firmware', 'prop', 'button'] as const;
