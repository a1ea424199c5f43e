import { QueryClient, useQuery } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useCallback, useState } from 'react';
import type { Hardware, ServerMessage } from '@plinth/shared';
import { queryKeys } from '../../../lib/query-keys';
import { useRealtimeListener } from '../../../lib/realtime-context';
import { renderLive } from '../../../test/live-socket';
import { HW, makeHardware, peripheral, prop } from '../test/support';
import { useHardwareLiveEvents } from './useHardwareLiveEvents';

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

let renders = 0;

/** What the board page shows of one prop, counting its renders (and, as the button-press counter does, the events in its own state). */
function LiveProp() {
  renders += 1;
  useHardwareLiveEvents(HW);
  const [seen, setSeen] = useState(0);
  useRealtimeListener(useCallback((message: ServerMessage) => message.type === 'hardware.propChanged' && setSeen((n) => n + 1), []));
  const hardware = useQuery<Hardware>({ queryKey: queryKeys.hardware(HW), queryFn: () => new Promise<Hardware>(() => undefined), staleTime: Infinity });
  return (
    <>
      <p data-testid="value">{String(hardware.data?.peripherals[0]?.props[0]?.value)}</p>
      <p data-testid="seen">{seen}</p>
    </>
  );
}

describe('live prop changes on the board page', () => {
  it('a burst of 1,000 socket updates makes a bounded number of renders, and the last value shows', { timeout: 20_000 }, async () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(queryKeys.hardware(HW), makeHardware({ peripherals: [peripheral('dial', 'Dial', [prop('level', 'int', 0)])] }));
    const { sockets, close } = await renderLive(<LiveProp />, queryClient);
    closers.push(close);
    await waitFor(() => expect(sockets).toHaveLength(1));
    expect(screen.getByTestId('value')).toHaveTextContent('0');

    const before = renders;
    const startedAt = performance.now();
    // One message at a time, each its own task on the console's side (as a browser delivers socket messages).
    for (let value = 1; value <= 1000; value += 1) {
      sockets[0]!.send(JSON.stringify({ type: 'hardware.propChanged', hardwareId: HW, peripheralId: 'dial', periphName: 'Dial', propName: 'level', propType: 'int', value }));
      if (value % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await waitFor(() => expect(screen.getByTestId('value')).toHaveTextContent('1000'), { timeout: 5000 });
    await waitFor(() => expect(screen.getByTestId('seen')).toHaveTextContent('1000'));
    const frames = Math.ceil((performance.now() - startedAt) / 16);
    // Handed out once per frame, inside one notify batch: at most two renders a frame (the
    // listeners' own state in the frame's task, the query cache's notification in the task TanStack
    // schedules right after) and a few more at the edges, where one render per socket message
    // would be about a hundred and fifty here.
    expect(renders - before).toBeLessThanOrEqual(2 * frames + 5);
  });
});
