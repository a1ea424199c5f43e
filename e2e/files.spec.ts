import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { createExhibitWithToken, createPlace, test, type ExhibitManifest } from './devices.js';
import { ADMIN, expect, signIn } from './fixtures.js';

/** The exhibit program's manifest: a file choice and a content-manager choice. */
const MANIFEST: ExhibitManifest = {
  settings: [
    { id: 'attract_video', type: 'FileSelection', display: 'Attract video' },
    { id: 'hero', type: 'StrapiContent', display: 'Hero story', contentType: 'article', displayFieldName: 'title' },
  ],
};

type Ids = { organization: { id: string }; site: { id: string } };
const exhibitPath = ({ organization, site }: Ids, exhibitId: string, tab: string) =>
  `/organization/${organization.id}/site/${site.id}/exhibits/${exhibitId}/${tab}`;

const fileRows = (page: Page) => page.getByTestId('file-row');
const contentDirs: string[] = [];

test.afterAll(() => {
  for (const dir of contentDirs) fs.rmSync(dir, { recursive: true, force: true });
});

function newContentDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-e2e-content-'));
  contentDirs.push(dir);
  return dir;
}

const onDisk = (dir: string) => fs.readdirSync(dir).filter((name) => !name.startsWith('.plinth-')).sort();

test('uploaded files reach the exhibit, a FileSelection choice follows them, and deleting a file in use asks first', async ({ page, apiAs, devices }) => {
  const admin = await apiAs();
  const place = await createPlace(admin, 'Files');
  const exhibit = await createExhibitWithToken(admin, place.site.id);
  const contentDir = newContentDir();
  const program = devices.exhibit(exhibit, MANIFEST, { contentDir });
  await program.waitForLine(/^ready$/);

  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(exhibitPath(place, exhibit.id, 'files'));
  await expect(page.getByText('This exhibit has no files yet.')).toBeVisible();

  // Two files at once; the popup shows each one's progress up to 100.
  const intro = Buffer.alloc(3 * 1024 * 1024, 'i');
  await page.getByLabel('Files to upload').setInputFiles([
    { name: 'intro.mp4', mimeType: 'video/mp4', buffer: intro },
    { name: 'welcome.txt', mimeType: 'text/plain', buffer: Buffer.from('Welcome to the gallery') },
  ]);
  const popup = page.getByRole('dialog', { name: 'File Uploads' });
  await expect(popup).toBeVisible();
  await expect(popup.getByRole('progressbar', { name: 'Upload of intro.mp4' })).toHaveAttribute('aria-valuenow', '100');
  await expect(popup.getByRole('progressbar', { name: 'Upload of welcome.txt' })).toHaveAttribute('aria-valuenow', '100');
  await expect(fileRows(page)).toHaveCount(2);
  // Default order: by name, descending.
  await expect(fileRows(page).first()).toContainText('welcome.txt');
  await expect(fileRows(page).filter({ hasText: 'intro.mp4' })).toContainText('3.15 MB');

  // The exhibit's content folder holds both, byte for byte.
  await program.waitForLine(/^files .*"intro\.mp4"/);
  await expect.poll(() => onDisk(contentDir)).toEqual(['intro.mp4', 'welcome.txt']);
  expect(fs.readFileSync(path.join(contentDir, 'intro.mp4')).equals(intro)).toBe(true);
  await popup.getByRole('button', { name: 'Close File Uploads' }).click();
  await expect(popup).toBeHidden();

  // Choose one of them for the FileSelection setting: the program gets it once it is on disk.
  await page.goto(exhibitPath(place, exhibit.id, 'settings'));
  const field = page.getByTestId('setting-attract_video');
  await field.getByRole('textbox', { name: 'Attract video' }).click();
  await page.getByRole('option', { name: 'intro.mp4' }).click();
  const before = program.lines.length;
  await page.getByRole('button', { name: 'Save' }).click();
  await program.waitForLine(/^setting attract_video "intro\.mp4"$/, { from: before });
  await expect(field.getByText('Applied', { exact: true })).toBeVisible();

  // Deleting it warns that the setting uses it; confirming resets the setting and removes the file everywhere.
  await page.goto(exhibitPath(place, exhibit.id, 'files'));
  await page.getByRole('checkbox', { name: 'Select intro.mp4' }).check();
  await expect(page.getByRole('button', { name: 'Upload Files' })).toBeDisabled();
  await page.getByRole('button', { name: 'Delete Files' }).click();
  await page.getByRole('dialog', { name: 'Delete Files' }).getByRole('button', { name: 'Delete' }).click();
  const conflicts = page.getByRole('dialog', { name: 'Files in use' });
  await expect(conflicts).toContainText('Attract video');
  const beforeDelete = program.lines.length;
  await conflicts.getByRole('button', { name: 'Delete and reset' }).click();
  await expect(fileRows(page)).toHaveCount(1);
  await program.waitForLine(/^setting attract_video ""$/, { from: beforeDelete });
  await program.waitForLine(/^files .*"removed":\["intro\.mp4"\]/, { from: beforeDelete });
  await expect.poll(() => onDisk(contentDir)).toEqual(['welcome.txt']);
});

test('a StrapiContent setting offers the content manager entries, and the exhibit gets the chosen one', async ({ page, apiAs, devices, plinth }) => {
  const admin = await apiAs();
  const place = await createPlace(admin, 'Content');
  plinth.strapi.setEntries('articles', [
    { id: 1, title: 'Tides and the moon', body: 'Why the sea rises twice a day.' },
    { id: 2, title: 'Lighthouses', body: 'A light on every headland.' },
  ]);
  const config = { url: plinth.strapi.url, adminUser: 'cms-admin@example.com', adminPassword: 'Adm1n-pass', apiUser: 'api-user', apiPassword: 'Ap1-pass' };
  await admin.put(`/org-management/organization/${place.organization.id}/setting/content_manager_config`, { value: JSON.stringify(config) });
  const exhibit = await createExhibitWithToken(admin, place.site.id);
  const program = devices.exhibit(exhibit, MANIFEST);
  await program.waitForLine(/^ready$/);

  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(exhibitPath(place, exhibit.id, 'settings'));
  const field = page.getByTestId('setting-hero');
  await field.getByRole('textbox', { name: 'Hero story' }).click();
  await expect(page.getByRole('option', { name: 'Tides and the moon' })).toBeVisible();
  await page.getByRole('option', { name: 'Lighthouses' }).click();
  const before = program.lines.length;
  await page.getByRole('button', { name: 'Save' }).click();
  const line = await program.waitForLine(/^setting hero "2"/, { from: before });
  expect(line).toContain('"title":"Lighthouses"');
  expect(line).toContain('"body":"A light on every headland."');
});
