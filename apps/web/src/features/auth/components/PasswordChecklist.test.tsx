import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { PASSWORD_RULES } from '@plinth/shared';
import { queryKeys } from '../../../lib/query-keys';
import { CreateAccountPage } from './CreateAccountPage';
import { PasswordChecklist } from './PasswordChecklist';
import { ResetPasswordPage } from './ResetPasswordPage';

function passedRules(): string[] {
  const list = screen.getByRole('list', { name: 'Password rules' });
  return within(list)
    .getAllByRole('listitem')
    .filter((item) => item.getAttribute('data-passed') === 'true')
    .map((item) => item.textContent ?? '');
}

function renderAt(path: string, element: React.ReactNode, seed: (client: QueryClient) => void) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  seed(client);
  return render(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/reset-password" element={element} />
            <Route path="/create-account" element={element} />
            <Route path="/login" element={<div>login screen</div>} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('PasswordChecklist', () => {
  it('shows every shared rule with its label text', () => {
    render(
      <MantineProvider>
        <PasswordChecklist password="" />
      </MantineProvider>,
    );
    for (const rule of PASSWORD_RULES) expect(screen.getByText(rule.label)).toBeInTheDocument();
    expect(screen.getAllByLabelText('Rule not met')).toHaveLength(4);
    expect(screen.getAllByLabelText('Rule met')).toHaveLength(1); // an empty password has no spaces
  });

  it('turns each rule on as the password is typed and enables Reset My Password only when all hold', async () => {
    const user = userEvent.setup();
    renderAt('/reset-password?id=abc', <ResetPasswordPage />, (client) =>
      client.setQueryData(queryKeys.accountLink('abc'), { valid: true, kind: 'reset_password', email: 'ada@example.com' }),
    );
    const button = screen.getByRole('button', { name: 'Reset My Password' });
    const field = screen.getByLabelText('New Password');
    expect(passedRules()).toEqual(['Password should not contain spaces']);
    expect(button).toBeDisabled();

    await user.type(field, 'a');
    expect(passedRules()).toContain('Password should contain at least one lowercase character');
    expect(passedRules()).not.toContain('Password should contain at least one uppercase character');
    expect(button).toBeDisabled();

    await user.type(field, 'B');
    expect(passedRules()).toContain('Password should contain at least one uppercase character');
    expect(button).toBeDisabled();

    await user.type(field, '1');
    expect(passedRules()).toContain('Password should contain at least one numeric digit');
    expect(passedRules()).not.toContain('Password length should be between 8-100 characters');
    expect(button).toBeDisabled();

    await user.type(field, 'cdefg');
    expect(passedRules()).toHaveLength(5);
    expect(button).toBeEnabled();

    await user.type(field, ' ');
    expect(passedRules()).not.toContain('Password should not contain spaces');
    expect(button).toBeDisabled();
  });

  it('keeps Create Password disabled until the rules hold, and asks the setup link for an email', async () => {
    const user = userEvent.setup();
    renderAt('/create-account?id=setup1', <CreateAccountPage />, (client) => {
      client.setQueryData(queryKeys.accountLink('setup1'), { valid: true, kind: 'setup', email: null });
      client.setQueryData(queryKeys.loginMethods, { methods: ['GENERIC'] });
    });
    const button = screen.getByRole('button', { name: 'Create Password' });
    await user.type(screen.getByLabelText('Password'), 'Abcdefg1');
    expect(passedRules()).toHaveLength(5);
    expect(button).toBeDisabled(); // the setup link also needs the email
    await user.type(screen.getByRole('textbox', { name: /Email/ }), 'admin@example.com');
    expect(button).toBeEnabled();
  });

  it('shows the CreateAccountURLExpired message for a reset link on the create-account screen', () => {
    renderAt('/create-account?id=r1', <CreateAccountPage />, (client) => {
      client.setQueryData(queryKeys.accountLink('r1'), { valid: true, kind: 'reset_password', email: 'a@b.c' });
      client.setQueryData(queryKeys.loginMethods, { methods: ['GENERIC'] });
    });
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Create account link is invalid. Please contact an admin to generate a new link.',
    );
    expect(screen.queryByRole('button', { name: 'Create Password' })).not.toBeInTheDocument();
  });

  it('goes to login when the link has no id', () => {
    renderAt('/reset-password', <ResetPasswordPage />, () => undefined);
    expect(screen.getByText('login screen')).toBeInTheDocument();
  });
});
