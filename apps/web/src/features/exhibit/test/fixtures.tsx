import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import type { Exhibit, ExhibitManifest, ExhibitSetting, ManifestResponse, ScheduledEvent, SettingList } from '@plinth/shared';

export const ORG = '00000000-0000-4000-8000-00000000000a';
export const SITE = '00000000-0000-4000-8000-00000000000b';
export const EXHIBIT = '00000000-0000-4000-8000-0000000000e1';

/** An exhibit as GET /exhibit-management/exhibit/{id} answers it. */
export function exhibitBody(over: Partial<Exhibit> = {}): Exhibit {
  return {
    id: EXHIBIT,
    name: 'Star Dome',
    siteId: SITE,
    siteName: 'Main Hall',
    organizationId: ORG,
    organizationName: 'Acme Museum',
    mqttPath: '10.0.0.5:1883',
    leaderId: null,
    leader: null,
    manifestLocked: false,
    online: true,
    opMode: 'On',
    op_mode: true,
    lastOnlineChange: null,
    followers: [],
    role: 'MANAGER',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}

/** A setting as the manifest call presents it (saved and applied unless told otherwise). */
export function setting(over: Partial<ExhibitSetting> & Pick<ExhibitSetting, 'manifestId' | 'type' | 'value'>): ExhibitSetting {
  return {
    id: `rec-${over.manifestId}-${over.listName ?? ''}`,
    display: over.manifestId,
    default: over.value,
    items: [],
    enabledOpMode: 'none',
    write: true,
    order: 0,
    listName: null,
    min: null,
    max: null,
    contentType: null,
    displayFieldName: null,
    version: 1,
    appliedVersion: 1,
    applied: true,
    ...over,
  };
}

export function settingList(
  over: Partial<SettingList> & Pick<SettingList, 'manifestId'>,
  items: { listName: string; values: ExhibitSetting[] }[],
): SettingList {
  return {
    id: `list-${over.manifestId}`,
    type: 'SettingsList',
    listDisplay: over.manifestId,
    listItemCount: items.length,
    enabledOpMode: 'none',
    write: true,
    order: 0,
    exhibitId: EXHIBIT,
    settings: [],
    settinglistitems: items.map((item, order) => ({
      listName: item.listName,
      order,
      items: item.values.map((v) => ({ ...v, listName: item.listName })),
      version: 1,
      appliedVersion: 1,
      applied: true,
    })),
    ...over,
  };
}

export function manifestBody(manifest: Partial<ExhibitManifest>, over: Partial<ManifestResponse> = {}): ManifestResponse {
  return {
    manifest: {
      statuses: [],
      controls: [],
      settings: [],
      strapiContent: [],
      settingLists: [],
      settingGroups: [],
      ...manifest,
    },
    opMode: 'On',
    online: true,
    manifestLocked: false,
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

export function errorBody(code: string, message: string, status: number): Response {
  return json({ response: message, code, message }, status);
}

export type Call = {
  method: string;
  path: string;
  body: unknown;
  query: string;
};

/** Stubs fetch with a handler answering (method, path without /api/v1); records every call. */
export function serve(handler: (call: Call) => Response | undefined) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
    const url = new URL(input, 'http://localhost');
    const call: Call = {
      method: init?.method ?? 'GET',
      path: url.pathname.replace('/api/v1', ''),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      query: url.search,
    };
    calls.push(call);
    return handler(call) ?? errorBody('NotFound', 'Not found', 404);
  });
  return calls;
}

export function newQueryClient() {
  return new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Infinity } },
  });
}

/** Renders inside Mantine, a QueryClient and a router, as the console does. */
export function renderWith(ui: ReactElement, queryClient = newQueryClient(), path = '/') {
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return queryClient;
}

/** An occurrence of the Scheduling tab: a one-off 'Morning show' that switches the op mode On. */
export function scheduledEvent(over: Partial<ScheduledEvent> = {}): ScheduledEvent {
  return {
    id: '00000000-0000-4000-8000-000000000101',
    exhibitId: EXHIBIT,
    name: 'Morning show',
    startDate: '2026-03-12T09:00:00.000Z',
    endDate: '2026-03-12T10:00:00.000Z',
    recurringStartDate: null,
    recurringEndDate: null,
    recurring: false,
    selectedFrequency: null,
    frequency: null,
    opMode: 'On',
    completed: false,
    state: 'scheduled',
    endState: 'none',
    ranAt: null,
    outcome: [],
    recurringId: null,
    manifest: { controls: [], settings: [], strapiContent: [], opMode: 'On' },
    schedulecontrols: [],
    schedulesettings: [],
    schedulestrapicontents: [],
    createdBy: 'dev@example.org',
    ...over,
  };
}
