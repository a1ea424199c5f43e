import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import { RealtimeClient } from '../lib/realtime';
import { RealtimeProvider } from '../lib/realtime-context';

/**
 * `ui` under the console's real RealtimeProvider, whose client is connected to a real socket
 * server on a free port (the test plays the server: `sockets` are its side of the connections).
 * `close` unmounts and stops the server.
 */
export async function renderLive(ui: ReactElement, queryClient = new QueryClient()) {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const sockets: ServerSocket[] = [];
  server.on('connection', (socket) => sockets.push(socket));
  const client = new RealtimeClient(`ws://127.0.0.1:${(server.address() as { port: number }).port}/ws`);
  const view = render(
    <MantineProvider env="test">
      <QueryClientProvider client={queryClient}>
        <RealtimeProvider client={client} enabled>
          {ui}
        </RealtimeProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return {
    client,
    sockets,
    queryClient,
    close: async () => {
      view.unmount();
      for (const socket of sockets) socket.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
