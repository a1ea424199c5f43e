import { ADMIN, USER_PASSWORD, createUserWithCli, expect, linkIn, logOut, openUserMenu, test, uniqueEmail } from './fixtures.js';

test.describe('sign in and out', () => {
  test('a signed-out visitor is sent to login, and Log In needs both fields', async ({ page }) => {
    await page.goto('/organization/whatever/sites');
    await expect(page).toHaveURL(/\/login$/);
    const logIn = page.getByRole('button', { name: 'Log In' });
    await expect(logIn).toBeDisabled();
    await page.getByLabel('Email').fill(ADMIN.email);
    await expect(logIn).toBeDisabled();
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await expect(logIn).toBeEnabled();
    await expect(page.getByRole('link', { name: 'Forgot password?' })).toBeVisible();
    await page.screenshot({ path: '/tmp/e2e-login.png', fullPage: true });
  });

  test('a wrong password shows the catalogue message and keeps the user on login', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill('Wr0ngPassword');
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(page.getByText('Incorrect email or password. Please try again.')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('the platform admin signs in, sees their name in the menu, and logs out', async ({ page, signIn }) => {
    await signIn(page, ADMIN.email, ADMIN.password);
    await expect(page.getByText(/^Good (Morning|Afternoon|Evening)/)).toBeVisible();
    await openUserMenu(page);
    const menu = page.getByRole('menu');
    await expect(menu.getByText(`${ADMIN.firstName} ${ADMIN.lastName}`)).toBeVisible();
    await expect(menu.getByText(ADMIN.email)).toBeVisible();
    await expect(menu.getByRole('menuitem', { name: 'Home' })).toBeVisible();
    await expect(menu.getByRole('menuitem', { name: 'Submit a Ticket' })).toBeVisible();
    await page.keyboard.press('Escape');

    await logOut(page);
    // The session is gone: a signed-in page sends the visitor back to login.
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible();
  });

  test('logging out in one tab sends the other tabs of the session to login, saying why', async ({ page, context, plinth, signIn }) => {
    const email = uniqueEmail('two-tabs');
    await createUserWithCli(plinth, email);
    await signIn(page, email, USER_PASSWORD);
    const other = await context.newPage();
    await other.goto('/');
    await expect(other.getByText(/^Good (Morning|Afternoon|Evening)/)).toBeVisible();

    await logOut(page);
    // The server closes the other tab's socket at once; the console answers by signing in again.
    await expect(other).toHaveURL(/\/login\?session=ended$/);
    await expect(other.getByRole('status')).toHaveText('Your session has ended. Please sign in again.');
    await expect(other.getByRole('button', { name: 'Log In' })).toBeVisible();
  });

  test('a signed-in user opening /login goes home', async ({ page, signIn }) => {
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.goto('/login');
    await expect(page).toHaveURL(/\/$/);
  });
});

test.describe('forgotten password', () => {
  test('a user asks for a reset, follows the mailed link, chooses a new password and signs in with it', async ({ page, plinth, signIn }) => {
    const email = uniqueEmail('forgetful');
    await createUserWithCli(plinth, email);

    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    const request = page.getByRole('button', { name: 'Reset My Password' });
    await expect(request).toBeDisabled();
    await expect(page.getByRole('link', { name: 'Back to login' })).toBeVisible();
    // Emails are lowercased before sending.
    await page.getByLabel('Email').fill(email.toUpperCase());
    await request.click();
    await expect(page.getByText('Reset password confirmation email sent')).toBeVisible();
    await page.screenshot({ path: '/tmp/e2e-forgot.png', fullPage: true });

    const mail = await plinth.mail.waitFor(email, (m) => /reset/i.test(m.subject));
    const link = linkIn(mail);
    expect(link.pathname).toBe('/reset-password');
    await page.goto(link.pathname + link.search);

    const newPassword = 'N3wPassword';
    const field = page.getByLabel('New Password');
    const submit = page.getByRole('button', { name: 'Reset My Password' });
    await expect(field).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to login' })).toBeVisible();
    await field.fill('short');
    await expect(page.getByText('Password length should be between 8-100 characters')).toBeVisible();
    await expect(page.getByText('Password should contain at least one uppercase character')).toBeVisible();
    await expect(submit).toBeDisabled();
    await field.fill(newPassword);
    await expect(submit).toBeEnabled();
    await page.screenshot({ path: '/tmp/e2e-reset.png', fullPage: true });
    await submit.click();
    await expect(page).toHaveURL(/\/login$/);

    // The old password no longer works; the new one does.
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(USER_PASSWORD);
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(page.getByText('Incorrect email or password. Please try again.')).toBeVisible();
    await signIn(page, email, newPassword);

    // The link works once.
    await logOut(page);
    await page.goto(link.pathname + link.search);
    await expect(page.getByText('Reset link has expired. Please try again')).toBeVisible();
  });

  test('reset-password without an id goes to login', async ({ page }) => {
    await page.goto('/reset-password');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('create-account without an id goes to login, and with a bad id says the link is invalid', async ({ page }) => {
    await page.goto('/create-account');
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/create-account?id=not-a-real-link');
    await expect(
      page.getByText('Create account link is invalid. Please contact an admin to generate a new link.'),
    ).toBeVisible();
  });
});
