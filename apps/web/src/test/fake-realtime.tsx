import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import type { ServerMessage } from '@plinth/shared';
import type { RealtimeClient, RealtimeListener } from '../lib/realtime';
import { RealtimeProvider } from '../lib/realtime-context';

/** A socket client without a server: the test emits the messages its listeners receive. */
export class FakeRealtime {
  readonly listeners = new Set<RealtimeListener>();
  connect() {}
  disconnect() {}
  listen(listener: RealtimeListener) {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
  subscribe() {
    return () => undefined;
  }
  /** Delivers `message` to every listener, inside act. */
  emit(message: ServerMessage) {
    act(() => {
      for (const listener of this.listeners) listener(message);
    });
  }
}

/** Renders `ui` with Mantine, a fresh query client (no retries), a router and the fake socket. */
export function renderWithRealtime(ui: ReactElement, realtime = new FakeRealtime()) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const result = render(
    <MantineProvider env="test">
      <QueryClientProvider client={queryClient}>
        <RealtimeProvider client={realtime as unknown as RealtimeClient} enabled={false}>
          <MemoryRouter>{ui}</MemoryRouter>
        </RealtimeProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { ...result, realtime, queryClient };
}
