import { createExhibitWithToken, createPlace, test, type ExhibitManifest } from './devices.js';
import { ADMIN, createUserWithCli, expect, logOut, signIn, uniqueEmail, USER_PASSWORD } from './fixtures.js';

/** The exhibit program: two statuses and two controls, one of each to be narrowed for a viewer. */
const MANIFEST: ExhibitManifest = {
  statuses: [
    { id: 'visitors', type: 'Integer', display: 'Visitors today', default: 0 },
    { id: 'cpu_temp', type: 'Integer', display: 'CPU temperature', default: 40 },
  ],
  controls: [
    { id: 'reload', type: 'Single', display: 'Reload' },
    { id: 'restart', type: 'Single', display: 'Restart show' },
  ],
};

type Ids = { organization: { id: string }; site: { id: string } };
const exhibitPath = ({ organization, site }: Ids, exhibitId: string, tab: string) =>
  `/organization/${organization.id}/site/${site.id}/exhibits/${exhibitId}/${tab}`;

test('a manager adds a viewer, hides a status and makes a control read-only for them; the viewer sees neither, the API refuses the control, and the offline mail reaches them', async ({
  page,
  apiAs,
  plinth,
  devices,
}) => {
  const admin = await apiAs();
  const place = await createPlace(admin, 'People');
  const exhibit = await createExhibitWithToken(admin, place.site.id);
  const program = devices.exhibit(exhibit, MANIFEST);
  await program.waitForLine(/^ready$/);
  const email = uniqueEmail('front-of-house');
  await createUserWithCli(plinth, email, { firstName: 'Fran', lastName: 'Front' });

  // The manager adds the existing user as a viewer.
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(exhibitPath(place, exhibit.id, 'users'));
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Add User' }).click();
  const row = page.getByRole('button', { name: email, exact: true });
  await expect(row).toBeVisible();
  await expect(page.getByRole('textbox', { name: `Role of ${email}` })).toHaveValue('Viewer');

  // Their levels: the CPU temperature hidden, Restart show read-only; saved together.
  await row.click();
  await page.getByRole('radiogroup', { name: 'CPU temperature permission' }).getByText('Hidden', { exact: true }).click();
  await page.getByRole('radiogroup', { name: 'Restart show permission' }).getByText('Read', { exact: true }).click();
  await page.getByRole('button', { name: 'Save permissions' }).click();
  await expect(page.getByText(`The permissions of ${email} were saved.`)).toBeVisible();

  // And they will be mailed when the exhibit goes offline.
  await page.goto(exhibitPath(place, exhibit.id, 'notifications'));
  await page.getByRole('button', { name: email, exact: true }).click();
  await page.getByRole('switch', { name: 'The exhibit goes offline or comes back online' }).check();
  await expect(page.getByRole('switch', { name: 'The exhibit goes offline or comes back online' })).toBeChecked();

  // The viewer sees the one status, and the restart button disabled.
  await logOut(page);
  await signIn(page, email, USER_PASSWORD);
  await page.goto(exhibitPath(place, exhibit.id, 'overview'));
  await expect(page.getByText('Visitors today')).toBeVisible();
  await expect(page.getByText('CPU temperature')).toHaveCount(0);
  await page.goto(exhibitPath(place, exhibit.id, 'controls'));
  await expect(page.getByRole('button', { name: 'Reload' })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Restart show' })).toBeDisabled();
  // The viewer's tabs: no users, notifications, scheduling or auth (spec 2.1).
  await expect(page.getByRole('tab', { name: 'Users' })).toHaveCount(0);

  // The server refuses the control to them, whatever the console shows.
  const viewerApi = await apiAs(email, USER_PASSWORD);
  const refused = await viewerApi.context.post(`exhibit-management/exhibit/${exhibit.id}/control/restart`);
  expect(refused.status()).toBe(403);
  const allowed = await viewerApi.context.post(`exhibit-management/exhibit/${exhibit.id}/control/reload`);
  expect(allowed.status()).toBe(200);
  await program.waitForLine(/^control reload$/);

  // The program stops: after the grace period, the viewer gets the offline mail.
  await program.stop();
  const mail = await plinth.mail.waitFor(email, (m) => /offline/i.test(m.subject), 30_000);
  expect(mail.text).toContain(exhibit.name);
  expect(mail.text).toContain(exhibitPath(place, exhibit.id, 'overview'));
});
