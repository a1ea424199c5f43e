import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '../api-client';
import { formatDate } from '../format-date';
import { saveBlob } from '../save-file';
import type { LogSource } from './list-logs';

/** The range of a CSV, in epoch milliseconds. */
export type LogCsvRange = { start: number; end: number };

/** The name a CSV is saved under when the server names none: exhibit-logs-<id>-20260314-160509.csv. */
export function defaultCsvName({ kind, id }: LogSource, now: Date = new Date()): string {
  return `${kind}-logs-${id}-${formatDate(now, 'fileStamp')}.csv`;
}

/**
 * GET /logging/exhibit/csv or /logging/hardware/csv?id&start&end with `Accept: text/csv`: the
 * server streams the device's logs in the range as a CSV (datetime, data, event_type), which is
 * saved under the server's file name. The console never builds the file itself.
 */
export async function downloadLogsCsv(source: LogSource, range: LogCsvRange): Promise<void> {
  const { blob, fileName } = await apiDownload(`/logging/${source.kind}/csv`, { id: source.id, start: range.start, end: range.end }, 'text/csv');
  saveBlob(blob, fileName ?? defaultCsvName(source));
}

/** Download CSV; the button shows its pending state and the view its error. Nothing cached changes. */
export function useDownloadLogsCsv(source: LogSource) {
  return useMutation({ mutationFn: (range: LogCsvRange) => downloadLogsCsv(source, range) });
}
