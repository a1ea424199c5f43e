import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import { RealtimeClient } from '../lib/realtime';
import { RealtimeProvider } from '../lib/realtime-context';
import { LIVE_BANNER_DELAY_MS, LIVE_BANNER_TEXTS, LiveUpdatesBanner } from './LiveUpdatesBanner';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A real socket server the console's client connects to, and the console's provider around the banner. */
async function setup() {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const sockets: ServerSocket[] = [];
  server.on('connection', (socket) => sockets.push(socket));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const client = new RealtimeClient(`ws://127.0.0.1:${(server.address() as { port: number }).port}/ws`);
  const queryClient = new QueryClient();
  queryClient.setQueryData(['exhibits'], { exhibits: [] });
  const view = render(
    <MantineProvider env="test">
      <QueryClientProvider client={queryClient}>
        <RealtimeProvider client={client} enabled>
          <LiveUpdatesBanner />
        </RealtimeProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  closers.push(async () => {
    view.unmount();
    for (const socket of sockets) socket.terminate();
  });
  await waitFor(() => expect(client.status).toBe('live'));
  return { sockets, queryClient };
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
