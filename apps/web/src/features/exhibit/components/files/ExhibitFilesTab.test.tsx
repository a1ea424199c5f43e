import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SETTING_IDS, type ContentFile, type Exhibit, type FileConflicts } from '@plinth/shared';
import { stubXhr } from '../../../../test/fake-xhr';
import { errorBody, EXHIBIT, exhibitBody, json, ORG, renderWith, serve, SITE, type Call } from '../../test/fixtures';
import { ExhibitFilesTab, ORG_CONTENT_UNAVAILABLE } from './ExhibitFilesTab';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const LEADER = '00000000-0000-4000-8000-0000000000e2';

/** 14 March 2026, 16:05 local time. */
const AFTERNOON = new Date(2026, 2, 14, 16, 5, 9).toISOString();
const MORNING = new Date(2026, 0, 2, 9, 7, 3).toISOString();

const file = (name: string, updated_at: string, size: number, organizational = false): ContentFile => ({
  name,
  updated_at,
  size,
  organizational,
  sha256: organizational ? null : 'ab'.repeat(32),
});

const FILES = [
  file('intro.mp4', AFTERNOON, 1_536_000),
  file('attract.png', MORNING, 2048),
  file('video-2.mp4', MORNING, 3.5e9),
  file('[ORG] logo.svg', MORNING, 512, true),
];

type World = {
  files: ContentFile[];
  errors?: string[];
  /** The conflicts a delete without confirm answers, by file name. */
  conflicts?: Record<string, FileConflicts>;
  cmsUrl?: string;
  listStatus?: number;
  /** The server's upload limit in GET /config. */
  maxFileBytes?: number;
};

/** Answers the Files tab's calls as the server does; deletions change the listing. */
function serveFiles(world: World) {
  return serve((call: Call) => {
    const query = new URLSearchParams(call.query);
    if (call.path === '/content/files/ls') {
      if (world.listStatus) return errorBody('InternalServer', 'Database unavailable', world.listStatus);
      return json({ files: world.files, errors: world.errors ?? [] });
    }
    if (call.method === 'DELETE' && call.path === '/content/files/') {
      const name = query.get('fileName')!;
      const conflicts = world.conflicts?.[name];
      if (conflicts && query.get('confirm') !== 'true') return json({ response: 'This file is in use', code: 'Conflict', message: 'This file is in use', details: conflicts }, 409);
      world.files = world.files.filter((f) => f.name !== name);
      return json({ ok: true, reset: conflicts ?? { settings: [], events: [] } });
    }
    if (call.path === '/config') {
      return json({ supportEmail: 's@x', analyticsUrl: null, mqttPort: 1883, reportUrlPrefix: '', maxFileBytes: world.maxFileBytes ?? 2 * 1024 ** 3 });
    }
    if (call.path === `/org-management/organization/${ORG}`) {
      const organizationsettings = world.cmsUrl ? [{ idString: SETTING_IDS.contentManager, display: 'Content Manager', value: JSON.stringify({ url: world.cmsUrl }) }] : [];
      return json({ id: ORG, name: 'Acme Museum', organizationsettings, sites: [] });
    }
    return undefined;
  });
}

function renderTab(over: Partial<Exhibit> = {}) {
  return renderWith(<ExhibitFilesTab exhibit={exhibitBody({ role: 'DEVELOPER', ...over })} />);
}

const rowNames = () => screen.getAllByTestId('file-row').map((row) => within(row).getAllByRole('cell')[1]!.textContent);
const uploadButton = () => screen.getByRole('button', { name: 'Upload Files' });
const fileInput = () => screen.getByLabelText('Files to upload') as HTMLInputElement;
const video = (name: string, bytes = 10) => new File(['x'.repeat(bytes)], name, { type: 'video/mp4' });

describe('ExhibitFilesTab: the table', () => {
  it('lists the files with their count, by name descending, with dates, sizes and download links', async () => {
    serveFiles({ files: FILES, cmsUrl: 'https://cms.example.org/' });
    renderTab();
    expect(await screen.findByRole('heading', { name: 'Files (4)' })).toBeInTheDocument();
    expect(rowNames()).toEqual(['video-2.mp4', 'intro.mp4', 'attract.png', '[ORG] logo.svgOrganizational']);
    const intro = screen.getAllByTestId('file-row')[1]!;
    expect(within(intro).getByText('03/14/2026, 4:05 pm')).toBeInTheDocument();
    expect(within(intro).getByText('1.54 MB')).toBeInTheDocument();
    expect(within(screen.getAllByTestId('file-row')[0]!).getByText('3.50 GB')).toBeInTheDocument();
    const download = screen.getByRole('link', { name: 'Download intro.mp4' });
    expect(download).toHaveAttribute('href', `/api/v1/content/files/?exhibitId=${EXHIBIT}&fileName=intro.mp4`);
    expect(download).toHaveAttribute('download', 'intro.mp4');
    // Organizational files open in the content manager's media library and cannot be checked.
    expect(await screen.findByRole('link', { name: '[ORG] logo.svg' })).toHaveAttribute('href', 'https://cms.example.org/admin/plugins/upload');
    expect(screen.getByRole('link', { name: /Organizational media library/ })).toHaveAttribute('href', 'https://cms.example.org/admin/plugins/upload');
    expect(screen.queryByRole('checkbox', { name: 'Select [ORG] logo.svg' })).not.toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Select intro.mp4' })).toBeInTheDocument();
  });

  it('sorts by the clicked header, again to turn the order around', async () => {
    serveFiles({ files: FILES });
    const user = userEvent.setup();
    renderTab();
    await screen.findByRole('heading', { name: 'Files (4)' });
    expect(screen.getByRole('columnheader', { name: /Files/ })).toHaveAttribute('aria-sort', 'descending');
    await user.click(screen.getByRole('button', { name: 'Size' }));
    expect(rowNames()).toEqual(['[ORG] logo.svgOrganizational', 'attract.png', 'intro.mp4', 'video-2.mp4']);
    expect(screen.getByRole('columnheader', { name: /Size/ })).toHaveAttribute('aria-sort', 'ascending');
    await user.click(screen.getByRole('button', { name: 'Size' }));
    expect(rowNames()).toEqual(['video-2.mp4', 'intro.mp4', 'attract.png', '[ORG] logo.svgOrganizational']);
    await user.click(screen.getByRole('button', { name: 'Last Updated' }));
    expect(rowNames()[3]).toBe('intro.mp4');
    await user.click(screen.getByRole('button', { name: 'Files' }));
    expect(rowNames()).toEqual(['[ORG] logo.svgOrganizational', 'attract.png', 'intro.mp4', 'video-2.mp4']);
  });

  it('says when organizational content could not be read, and still lists the exhibit files', async () => {
    serveFiles({ files: FILES.slice(0, 2), errors: ['content manager unreachable'] });
    renderTab();
    expect(await screen.findByText(ORG_CONTENT_UNAVAILABLE)).toBeInTheDocument();
    expect(rowNames()).toEqual(['intro.mp4', 'attract.png']);
    expect(screen.queryByRole('link', { name: /Organizational media library/ })).not.toBeInTheDocument();
  });

  it('shows the empty state', async () => {
    serveFiles({ files: [] });
    renderTab();
    expect(await screen.findByText('This exhibit has no files yet.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Files (0)' })).toBeInTheDocument();
  });

  it('says when the files cannot be read', async () => {
    serveFiles({ files: [], listStatus: 500 });
    renderTab();
    expect(await screen.findByRole('alert')).toHaveTextContent('The files of this exhibit cannot be shown right now. Database unavailable');
  });
});

describe('ExhibitFilesTab: who may upload', () => {
  it('disables Upload Files while a file is checked, and offers select-all', async () => {
    serveFiles({ files: FILES });
    const user = userEvent.setup();
    renderTab();
    await screen.findByRole('heading', { name: 'Files (4)' });
    expect(uploadButton()).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Delete Files' })).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Select intro.mp4' }));
    expect(uploadButton()).toBeDisabled();
    expect(fileInput()).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Delete Files' })).toBeEnabled();
    await user.click(screen.getByRole('checkbox', { name: 'Select all files' }));
    expect(screen.getAllByRole('checkbox', { checked: true })).toHaveLength(4);
    await user.click(screen.getByRole('checkbox', { name: 'Select all files' }));
    expect(screen.queryAllByRole('checkbox', { checked: true })).toHaveLength(0);
    expect(uploadButton()).toBeEnabled();
  });

  it('disables it for a follower, which shows its leader files and the note', async () => {
    serveFiles({ files: FILES });
    renderTab({ leaderId: LEADER, leader: { id: LEADER, name: 'Main Dome' } });
    await screen.findByRole('heading', { name: 'Files (4)' });
    expect(uploadButton()).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Delete Files' })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    const note = screen.getByTestId('files-leader-note');
    expect(note).toHaveTextContent('This exhibit is synced to Main Dome: these are its files');
    expect(within(note).getByRole('link', { name: 'Main Dome' })).toHaveAttribute('href', `/organization/${ORG}/site/${SITE}/exhibits/${LEADER}/files`);
  });

  it('disables it for a viewer, who may still download', async () => {
    serveFiles({ files: FILES });
    renderTab({ role: 'VIEWER' });
    await screen.findByRole('heading', { name: 'Files (4)' });
    expect(uploadButton()).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Delete Files' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download intro.mp4' })).toBeInTheDocument();
  });
});

describe('ExhibitFilesTab: uploading', () => {
  it('refuses the whole selection when one name begins with [ORG]', async () => {
    serveFiles({ files: FILES });
    const requests = stubXhr();
    const user = userEvent.setup();
    renderTab();
    await screen.findByRole('heading', { name: 'Files (4)' });
    await user.upload(fileInput(), [video('fine.mp4'), video('[ORG] sneaky.mp4')]);
    expect(await screen.findByRole('alert')).toHaveTextContent('Filename may not begin with "[ORG]"');
    expect(requests).toHaveLength(0);
    expect(screen.queryByRole('dialog', { name: 'File Uploads' })).not.toBeInTheDocument();
  });

  it('refuses the whole selection when one file is larger than the server takes, before sending anything', async () => {
    const calls = serveFiles({ files: FILES, maxFileBytes: 100 });
    const requests = stubXhr();
    const user = userEvent.setup();
    renderTab();
    await screen.findByRole('heading', { name: 'Files (4)' });
    await waitFor(() => expect(calls.some((c) => c.path === '/config')).toBe(true));
    // Let the answer reach the query cache.
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    await user.upload(fileInput(), [video('small.mp4', 100), video('huge.mp4', 101)]);
    expect(await screen.findByRole('alert')).toHaveTextContent('huge.mp4 is larger than the upload limit of 100.00 B.');
    expect(requests).toHaveLength(0);
  });

  it('uploads each file with its real progress in the File Uploads popup, and shows a refusal per file', async () => {
    const calls = serveFiles({ files: FILES });
    const requests = stubXhr();
    const user = userEvent.setup();
    renderTab();
    await screen.findByRole('heading', { name: 'Files (4)' });
    const listings = () => calls.filter((c) => c.path === '/content/files/ls').length;
    const before = listings();
    await user.upload(fileInput(), [video('new.mp4'), video('huge.mp4')]);

    const popup = await screen.findByRole('dialog', { name: 'File Uploads' });
    const bar = (name: string) => within(popup).getByRole('progressbar', { name: `Upload of ${name}` });
    expect(bar('new.mp4')).toHaveAttribute('aria-valuenow', '0');
    expect(within(popup).getByText('Waiting')).toBeInTheDocument();
    // One request per file, one after the other, each with the site and exhibit.
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]!.url).toBe(`/api/v1/content/files/upload?exhibitId=${EXHIBIT}&siteId=${SITE}`);
    expect(requests[0]!.fileName).toBe('new.mp4');
    act(() => requests[0]!.progress(50, 100));
    expect(bar('new.mp4')).toHaveAttribute('aria-valuenow', '50');
    act(() => requests[0]!.progress(100, 100));
    expect(bar('new.mp4')).toHaveAttribute('aria-valuenow', '99');
    act(() => requests[0]!.respond(200, { files: [file('new.mp4', AFTERNOON, 10)] }));
    await waitFor(() => expect(bar('new.mp4')).toHaveAttribute('aria-valuenow', '100'));
    await waitFor(() => expect(listings()).toBeGreaterThan(before));

    await waitFor(() => expect(requests).toHaveLength(2));
    expect(requests[1]!.fileName).toBe('huge.mp4');
    act(() => requests[1]!.respond(413, { response: 'The file is larger than 2.00 GB', code: 'PayloadTooLarge', message: 'The file is larger than 2.00 GB' }));
    expect(await within(popup).findByText('The file is larger than 2.00 GB')).toBeInTheDocument();
    expect(within(popup).getByText('Failed')).toBeInTheDocument();

    // Nothing is running any more: closing needs no confirmation.
    await user.click(within(popup).getByRole('button', { name: 'Close File Uploads' }));
    expect(screen.queryByRole('dialog', { name: 'File Uploads' })).not.toBeInTheDocument();
  });
});

describe('ExhibitFilesTab: deleting', () => {
  const conflicts: FileConflicts = {
    settings: [
      { exhibitId: EXHIBIT, exhibitName: 'Star Dome', settingId: 'attract_video', display: 'Attract video', listName: null },
      { exhibitId: LEADER, exhibitName: 'Main Dome', settingId: 'clip', display: 'Clip', listName: 'Morning' },
    ],
    events: [{ id: '00000000-0000-4000-8000-000000000301', name: 'Holiday loop', startDate: AFTERNOON }],
  };

  it('warns with the settings and events that use a file, then deletes it on confirming', async () => {
    const calls = serveFiles({ files: [...FILES], conflicts: { 'intro.mp4': conflicts } });
    const user = userEvent.setup();
    renderTab();
    await screen.findByRole('heading', { name: 'Files (4)' });
    await user.click(screen.getByRole('checkbox', { name: 'Select intro.mp4' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select attract.png' }));
    await user.click(screen.getByRole('button', { name: 'Delete Files' }));

    const confirm = await screen.findByRole('dialog', { name: 'Delete Files' });
    expect(within(confirm).getByText('Delete these 2 files?')).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));

    const warning = await screen.findByRole('dialog', { name: 'Files in use' });
    const deletes = () => calls.filter((c) => c.method === 'DELETE').map((c) => Object.fromEntries(new URLSearchParams(c.query)));
    expect(deletes()).toEqual([
      { siteId: SITE, exhibitId: EXHIBIT, fileName: 'intro.mp4' },
      { siteId: SITE, exhibitId: EXHIBIT, fileName: 'attract.png' },
    ]);
    expect(within(warning).getByText(/^This file is in use\. Deleting it resets these settings/)).toBeInTheDocument();
    const inUse = within(warning).getByTestId('file-in-use');
    expect(within(inUse).getByText('intro.mp4')).toBeInTheDocument();
    expect(within(inUse).getByText('Setting “Attract video” of Star Dome')).toBeInTheDocument();
    expect(within(inUse).getByText('Setting “Clip” (list item “Morning”) of Main Dome')).toBeInTheDocument();
    expect(within(inUse).getByText('Event “Holiday loop” on 03-14-2026 4:05 pm')).toBeInTheDocument();
    // The file that nothing used is gone already.
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Files (3)' })).toBeInTheDocument());

    await user.click(within(warning).getByRole('button', { name: 'Delete and reset' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Files in use' })).not.toBeInTheDocument());
    expect(deletes()[2]).toEqual({ siteId: SITE, exhibitId: EXHIBIT, fileName: 'intro.mp4', confirm: 'true' });
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Files (2)' })).toBeInTheDocument());
    expect(screen.queryAllByRole('checkbox', { checked: true })).toHaveLength(0);
    expect(uploadButton()).toBeEnabled();
  });

  it('asks a plain confirmation when nothing uses the file, and Cancel deletes nothing', async () => {
    const calls = serveFiles({ files: [...FILES] });
    const user = userEvent.setup();
    renderTab();
    await screen.findByRole('heading', { name: 'Files (4)' });
    await user.click(screen.getByRole('checkbox', { name: 'Select intro.mp4' }));
    await user.click(screen.getByRole('button', { name: 'Delete Files' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete Files' })).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete Files' })).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete Files' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete Files' });
    expect(within(confirm).getByText('Delete this file?')).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete Files' })).not.toBeInTheDocument());
    expect(screen.queryByRole('dialog', { name: 'Files in use' })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Files (3)' })).toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });
});
