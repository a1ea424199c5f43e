import { Secret, TOTP } from 'otpauth';
import {
  ADMIN,
  USER_PASSWORD,
  createOrganization,
  createUserWithCli,
  expect,
  inviteUser,
  logOut,
  openUserMenu,
  test,
  uniqueEmail,
  uniqueName,
  type Api,
} from './fixtures.js';
import type { Page } from '@playwright/test';

/** The code an authenticator app shows for `secret`, `offsetSteps` 30-second steps from now. */
function totpCode(secret: string, offsetSteps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  return totp.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

/** Sets up two-factor sign-in on the page's enrolment panel; answers the secret and the recovery codes. */
async function enrol(page: Page): Promise<{ secret: string; recoveryCodes: string[] }> {
  await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  const qr = page.getByRole('img', { name: 'QR code for your authenticator app' });
  await expect(qr).toBeVisible();
  // The QR image really decoded (an SVG with a size), not a broken image.
  await expect.poll(() => qr.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth > 0)).toBe(true);
  const secret = (await page.getByTestId('two-factor-secret').textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await page.getByLabel('Code from the app').fill(totpCode(secret));
  await page.getByRole('button', { name: 'Confirm' }).click();
  const list = page.getByRole('list', { name: 'Recovery codes' });
  await expect(list.getByRole('listitem')).toHaveCount(10);
  const recoveryCodes = (await list.getByRole('listitem').allTextContents()).map((code) => code.trim());
  await page.getByRole('button', { name: 'I have saved my recovery codes' }).click();
  return { secret, recoveryCodes };
}

test('two-factor sign-in: enrol with the QR code and secret, sign in with a code, use a recovery code once', async ({ page, plinth, signIn }) => {
  const email = uniqueEmail('two-factor');
  await createUserWithCli(plinth, email);
  await signIn(page, email, USER_PASSWORD);

  // Enrol from the profile menu.
  await openUserMenu(page);
  await page.getByRole('menuitem', { name: 'Two-factor sign-in' }).click();
  await expect(page).toHaveURL(/\/account\/two-factor$/);
  // A wrong code first: it is refused and nothing is turned on.
  await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  const secretShown = (await page.getByTestId('two-factor-secret').textContent())!.trim();
  await page.getByLabel('Code from the app').fill(totpCode(secretShown) === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('alert')).toContainText('That code is not right');
  // Start again from a fresh page: a new secret replaces the unconfirmed one.
  await page.reload();
  const { secret, recoveryCodes } = await enrol(page);
  await expect(page.getByText('Two-factor sign-in is on. Recovery codes left: 10.')).toBeVisible();
  await logOut(page);

  // The password alone no longer signs in: the code is asked for next. The code just used for
  // enrolling is not accepted twice, so take the app's next one (accepted within the window).
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(USER_PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
  await page.getByLabel('Authentication code').fill(totpCode(secret, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText(/^Good (Morning|Afternoon|Evening)/)).toBeVisible();
  await logOut(page);

  // A recovery code signs in once.
  const signInWithCode = async (code: string) => {
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(USER_PASSWORD);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByLabel('Authentication code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
  };
  await signInWithCode(recoveryCodes[0]!);
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/account/two-factor');
  await expect(page.getByText('Recovery codes left: 9.')).toBeVisible();
  await logOut(page);
  await signInWithCode(recoveryCodes[0]!);
  await expect(page.getByRole('alert')).toContainText('That code is not right');
  await expect(page).toHaveURL(/\/login$/);
});

test('an organization that requires two-factor sign-in sends its members to enrol before anything else', async ({ page, plinth, apiAs, signIn }) => {
  const admin: Api = await apiAs();
  const org = await createOrganization(admin, uniqueName('Strict Museum'));
  const email = uniqueEmail('strict-member');
  await inviteUser(admin, plinth.mail, { organizationId: org.id }, email, 'viewer');

  // The platform admin turns the requirement on in the organization's settings.
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(`/organization/${org.id}/settings`);
  const requirement = page.getByRole('switch', { name: /Require Two-Factor Sign-In/ });
  await expect(requirement).not.toBeChecked();
  await requirement.click({ force: true });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Settings saved.')).toBeVisible();
  await logOut(page);

  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(USER_PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).toHaveURL(/\/account\/two-factor$/);
  await expect(page.getByRole('heading', { name: 'Set up two-factor sign-in' })).toBeVisible();
  await expect(page.getByText('Your organization requires two-factor sign-in.')).toBeVisible();
  // Nothing else of the console opens meanwhile.
  await page.goto(`/organization/${org.id}`);
  await expect(page).toHaveURL(/\/account\/two-factor$/);

  await enrol(page);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText(/^Good (Morning|Afternoon|Evening)/)).toBeVisible();
  await expect(page.getByText(org.name)).toBeVisible();
});
