import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ForgotPasswordPage } from './ForgotPasswordPage';

function answerWith(status: number, body: unknown) {
  vi.stubGlobal('fetch', () => Promise.resolve(new Response(JSON.stringify(body), { status })));
}

async function askForReset() {
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={['/forgot-password']}>
          <ForgotPasswordPage />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Email'), 'ada@example.com');
  await user.click(screen.getByRole('button', { name: 'Reset My Password' }));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ForgotPasswordPage', () => {
  it('confirms the request', async () => {
    answerWith(200, { ok: true });
    await askForReset();
    expect(await screen.findByRole('status')).toHaveTextContent('Reset password confirmation email sent');
  });

  it('shows how long to wait when reset mails are throttled', async () => {
    const message = 'Too many emails were requested. Try again in 1 minute.';
    answerWith(429, { response: message, code: 'TooManyRequests', message, details: { retryAfterSeconds: 60 } });
    await askForReset();
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
  });

  it('keeps the generic failure text for other errors', async () => {
    answerWith(500, { response: 'InternalServer', code: 'InternalServer', message: 'x' });
    await askForReset();
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong on our side. Please try again.');
  });
});
