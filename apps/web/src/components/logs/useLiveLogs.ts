import { useCallback, useEffect, useRef, useState } from 'react';
import { LIVE_LOG_RENEW_MS, type LogLine, type ServerMessage } from '@plinth/shared';
import type { LogSource } from '../../lib/api/list-logs';
import { useSetLiveLog } from '../../lib/api/set-live-log';
import { useRealtimeListener } from '../../lib/realtime-context';
import type { LogRowData } from './LogTable';

/** The most live lines kept on screen; older ones drop off the bottom. */
export const LIVE_LOG_MAX_ROWS = 500;

/** The line of a socket message when it is a live log line of this device. */
export function liveLineOf(source: LogSource, message: ServerMessage): LogLine | null {
  if (source.kind === 'exhibit' && message.type === 'exhibit.logged' && message.exhibitId === source.id) return message.log;
  if (source.kind === 'hardware' && message.type === 'hardware.logged' && message.hardwareId === source.id) return message.log;
  return null;
}

/**
 * Live mode of the logs view (spec section 4): while `active`, the live log of the device is
 * switched on at once and renewed every LIVE_LOG_RENEW_MS (58 s), and the lines arriving on the
 * socket are put on top, new (highlighted) rows first; leaving live mode or the screen switches it
 * off. Entering live mode starts with no rows. The page subscribes to the device on the socket.
 */
export function useLiveLogs(source: LogSource, active: boolean) {
  const [rows, setRows] = useState<LogRowData[]>([]);
  const lease = useSetLiveLog(source);
  const { mutate } = lease;
  const counter = useRef(0);

  useEffect(() => {
    if (!active) return;
    setRows([]);
    mutate(true);
    const timer = setInterval(() => mutate(true), LIVE_LOG_RENEW_MS);
    return () => {
      clearInterval(timer);
      mutate(false);
    };
  }, [active, mutate, source.kind, source.id]);

  const { kind, id } = source;
  const listener = useCallback(
    (message: ServerMessage) => {
      if (!active) return;
      const line = liveLineOf({ kind, id }, message);
      if (!line) return;
      counter.current += 1;
      const row: LogRowData = { key: `live-${counter.current}`, ...line, arrivedAt: Date.now() };
      setRows((previous) => [row, ...previous].slice(0, LIVE_LOG_MAX_ROWS));
    },
    [active, kind, id],
  );
  useRealtimeListener(listener);

  return { rows, lease };
}
