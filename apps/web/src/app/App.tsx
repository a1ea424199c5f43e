import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { BrowserRouter } from 'react-router';
import { prefetchHomeData } from '../features/home/api/prefetch-home';
import { paths } from '../lib/paths';
import { createQueryClient } from '../lib/query-client';
import { RealtimeClient } from '../lib/realtime';
import { AppRoutes } from './AppRoutes';
import { theme } from './theme';

/** Providers: Mantine, TanStack Query, router; the session gate and realtime socket live in AppRoutes. */
export function App() {
  const [queryClient] = useState(() => {
    const client = createQueryClient();
    if (window.location.pathname === paths.home()) prefetchHomeData(client);
    return client;
  });
  const [realtime] = useState(() => new RealtimeClient());
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <Notifications position="top-right" />
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <AppRoutes realtime={realtime} />
        </BrowserRouter>
      </QueryClientProvider>
    </MantineProvider>
  );
}
