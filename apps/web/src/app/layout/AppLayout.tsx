import { AppShell } from '@mantine/core';
import { Outlet } from 'react-router';

/** Signed-in frame: the top bar (filled in by the layout work) and the page. */
export function AppLayout() {
  return (
    <AppShell header={{ height: 60 }} padding="md">
      <AppShell.Header />
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
