import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider, useMutation, type UseMutationResult } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { vi } from 'vitest';

/**
 * A real TanStack mutation running `fn`, handed to `children` as the screens hand theirs to a
 * shared dialog or list, so component tests see the pending and error states a screen would.
 */
export function MutationHarness<TInput, TResult = unknown>({
  fn,
  children,
}: {
  fn: (input: TInput) => Promise<TResult>;
  children: (mutation: UseMutationResult<TResult, Error, TInput>) => ReactElement;
}) {
  const mutation = useMutation({ mutationFn: (input: TInput) => fn(input) });
  return children(mutation);
}

/** Renders `ui` inside Mantine and a fresh query client (no retries). */
export function renderWithClient(ui: ReactElement) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <MantineProvider env="test">
      <QueryClientProvider client={client}>{ui}</QueryClientProvider>
    </MantineProvider>,
  );
}

/** Stubs `fetch`: every API call gets `answer(method, path)`; answers the calls made, as 'METHOD /path'. */
export function stubApi(answer: (method: string, path: string) => { status?: number; body: unknown }): string[] {
  const calls: string[] = [];
  vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const path = new URL(input, 'http://localhost').pathname.replace('/api/v1', '');
    calls.push(`${method} ${path}`);
    const { status = 200, body } = answer(method, path);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  return calls;
}

/** A query client for a hook test, a spy on its invalidations and a wrapper that provides it. */
export function setupQueryClient() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const invalidated = vi.spyOn(queryClient, 'invalidateQueries');
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  /** The keys invalidated so far, in order. */
  const invalidatedKeys = () => invalidated.mock.calls.map(([filters]) => filters?.queryKey);
  return { queryClient, invalidated, invalidatedKeys, wrapper };
}
