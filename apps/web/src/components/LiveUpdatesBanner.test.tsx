import { QueryClient } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderLive } from '../test/live-socket';
import { LIVE_BANNER_DELAY_MS, LIVE_BANNER_TEXTS, LiveUpdatesBanner } from './LiveUpdatesBanner';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** The banner under the console's provider, its client connected to a socket server the test plays. */
async function setup() {
  const queryClient = new QueryClient();
  queryClient.setQueryData(['exhibits'], { exhibits: [] });
  const live = await renderLive(<LiveUpdatesBanner />, queryClient);
  closers.push(live.close);
  await waitFor(() => expect(live.client.status).toBe('live'));
  return live;
}

describe('LiveUpdatesBanner', () => {
  it("says live updates may be missing while the server's link to the other servers is lost, then reads everything again", async () => {
    const { sockets, queryClient } = await setup();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    sockets[0]!.send(JSON.stringify({ type: 'realtime.status', live: false }));
    // Not at once: a short interruption says nothing.
    await new Promise((resolve) => setTimeout(resolve, LIVE_BANNER_DELAY_MS / 2));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(await screen.findByRole('status', {}, { timeout: LIVE_BANNER_DELAY_MS * 2 })).toHaveTextContent(LIVE_BANNER_TEXTS.stale);
    expect(queryClient.getQueryState(['exhibits'])?.isInvalidated).toBe(false);

    sockets[0]!.send(JSON.stringify({ type: 'realtime.status', live: true }));
    await waitFor(() => expect(screen.queryByRole('status')).not.toBeInTheDocument());
    expect(queryClient.getQueryState(['exhibits'])?.isInvalidated).toBe(true);
  });
});
