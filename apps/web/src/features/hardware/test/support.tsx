import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { vi } from 'vitest';
import type { Hardware, Peripheral, Prop, ServerMessage } from '@plinth/shared';
import type { RealtimeClient, RealtimeListener } from '../../../lib/realtime';
import { RealtimeProvider } from '../../../lib/realtime-context';

export const ORG = '00000000-0000-4000-8000-00000000000a';
export const SITE = '00000000-0000-4000-8000-00000000000b';
export const HW = '00000000-0000-4000-8000-0000000000f1';
export const HW2 = '00000000-0000-4000-8000-0000000000f2';
export const EXHIBIT = '00000000-0000-4000-8000-0000000000e1';

export function prop(name: string, type: string, value: Prop['value'], extra: Partial<Prop> = {}): Prop {
  return { name, type, value, settable: 'false', hide: 'false', min: null, max: null, displayType: null, ...extra };
}

export function peripheral(id: string, name: string, props: Prop[]): Peripheral {
  return { id, name, props };
}

/** A hardware record as GET /hardware-mgmt/hardware/{id} answers it. */
export function makeHardware(overrides: Partial<Hardware> = {}): Hardware {
  return {
    id: HW,
    name: 'Board A',
    siteId: SITE,
    siteName: 'Main Hall',
    organizationId: ORG,
    organizationName: 'Acme Museum',
    exhibitId: null,
    exhibitName: null,
    online: true,
    connected: false,
    controlDebug: true,
    ip: '10.0.0.5',
    mac: 'AA:BB:CC:DD:EE:FF',
    plinth_fw: '46',
    user_fw: '1.2',
    numPeripherals: 0,
    voltage: 5.1,
    temp: 40,
    uptime: 12,
    exhibitState: 'idle',
    exhibitIP: '10.0.0.9',
    peripherals: [],
    firmware: null,
    role: 'DEVELOPER',
    createdAt: '2026-01-02T10:00:00.000Z',
    updatedAt: '2026-01-03T11:30:00.000Z',
    ...overrides,
  };
}

/** A socket client that delivers messages the test emits, without a server. */
export class FakeRealtime {
  readonly listeners = new Set<RealtimeListener>();
  readonly subscriptions: { exhibitIds?: string[]; hardwareIds?: string[] }[] = [];
  connect() {}
  disconnect() {}
  listen(listener: RealtimeListener) {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
  subscribe(subscription: { exhibitIds?: string[]; hardwareIds?: string[] }) {
    this.subscriptions.push(subscription);
    return () => undefined;
  }
  emit(message: ServerMessage) {
    for (const listener of this.listeners) listener(message);
  }
}

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

export type Call = { method: string; path: string; query: URLSearchParams; body: unknown };
export type Handler = (call: Call) => Response | Promise<Response> | undefined;

/** Stubs fetch with a handler answering the server's shapes; unknown calls answer 404. Returns the calls seen. */
export function serve(handler: Handler): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
    const url = new URL(input, 'http://localhost');
    const raw = init?.body;
    const body = typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw;
    const call: Call = { method: init?.method ?? 'GET', path: url.pathname.replace('/api/v1', ''), query: url.searchParams, body };
    calls.push(call);
    return (await handler(call)) ?? json({ response: 'NotFound', code: 'NotFound', message: 'Not found' }, 404);
  });
  return calls;
}

function Where() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname}</div>;
}

/**
 * Renders with Mantine, a fresh QueryClient (optionally pre-filled), a router at `path` and the
 * fake socket client.
 */
export function renderWithProviders(
  ui: ReactElement,
  options: { path?: string; routePath?: string; realtime?: FakeRealtime; prefill?: (client: QueryClient) => void } = {},
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  options.prefill?.(queryClient);
  const realtime = options.realtime ?? new FakeRealtime();
  const path = options.path ?? '/';
  const result = render(
    <MantineProvider env="test">
      <QueryClientProvider client={queryClient}>
        <RealtimeProvider client={realtime as unknown as RealtimeClient} enabled={false}>
          <MemoryRouter initialEntries={[path]}>
            <Routes>
              <Route path={options.routePath ?? '*'} element={ui} />
              <Route path="*" element={<div>elsewhere</div>} />
            </Routes>
            <Where />
          </MemoryRouter>
        </RealtimeProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { ...result, queryClient, realtime };
}
