import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { queryKeys } from '../../../lib/query-keys';
import { LoginPage, SESSION_ENDED_MESSAGE, SSO_FAILED_MESSAGE } from './LoginPage';

function renderLogin(methods: string[] | 'failed', path = '/login') {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  if (methods !== 'failed') client.setQueryData(queryKeys.loginMethods, { methods });
  render(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[path]}>
          <LoginPage />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('LoginPage', () => {
  it('enables Log In only when both email and password are filled', async () => {
    const user = userEvent.setup();
    renderLogin(['GENERIC']);
    const button = screen.getByRole('button', { name: 'Log In' });
    expect(button).toBeDisabled();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    expect(button).toBeDisabled();
    await user.type(screen.getByLabelText('Password'), 'x');
    expect(button).toBeEnabled();
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password');
    expect(screen.queryByText('Sign in with Google')).not.toBeInTheDocument();
  });

  it('offers Google as a browser navigation to the sign-on start', () => {
    renderLogin(['GOOGLE_AUTH']);
    expect(screen.getByRole('link', { name: 'Sign in with Google' })).toHaveAttribute('href', '/api/v1/auth/google');
    expect(screen.queryByRole('button', { name: 'Log In' })).not.toBeInTheDocument();
  });

  it('keeps the email form when the method list cannot be read', async () => {
    // The network is down: every request fails before reaching a server.
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    try {
      renderLogin('failed');
      expect(await screen.findByRole('button', { name: 'Log In' })).toBeInTheDocument();
      expect(screen.queryByText('Sign in with Google')).not.toBeInTheDocument();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('asks for the two-factor code when the password was right and the account uses it, without leaving the page', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    vi.stubGlobal('fetch', () => Promise.resolve(new Response(JSON.stringify({ twoFactorRequired: true }), { headers: { 'content-type': 'application/json' } })));
    try {
      const user = userEvent.setup();
      renderLogin(['GENERIC']);
      await user.type(screen.getByLabelText('Email'), 'ada@example.com');
      await user.type(screen.getByLabelText('Password'), 'Passw0rd');
      await user.click(screen.getByRole('button', { name: 'Log In' }));
      expect(await screen.findByLabelText('Authentication code')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Verify' })).toBeDisabled();
      expect(assign).not.toHaveBeenCalled();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('says so when single sign-on failed', () => {
    renderLogin(['GENERIC', 'GOOGLE_AUTH'], '/login?sso=failed');
    expect(screen.getByRole('alert')).toHaveTextContent(SSO_FAILED_MESSAGE);
  });

  it('says why when the session ended elsewhere', () => {
    renderLogin(['GENERIC'], '/login?session=ended');
    expect(screen.getByRole('status')).toHaveTextContent(SESSION_ENDED_MESSAGE);
  });

  it('shows how long to wait when sign-in is throttled', async () => {
    const message = 'Too many failed attempts. Try again in 2 minutes.';
    const body = { response: message, code: 'TooManyRequests', message, details: { retryAfterSeconds: 120 } };
    vi.stubGlobal('fetch', () => Promise.resolve(new Response(JSON.stringify(body), { status: 429, headers: { 'retry-after': '120' } })));
    try {
      const user = userEvent.setup();
      renderLogin(['GENERIC']);
      await user.type(screen.getByLabelText('Email'), 'ada@example.com');
      await user.type(screen.getByLabelText('Password'), 'Wr0ngPassword');
      await user.click(screen.getByRole('button', { name: 'Log In' }));
      expect(await screen.findByRole('alert')).toHaveTextContent(message);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
