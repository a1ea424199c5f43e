import { MantineProvider } from '@mantine/core';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi, type Mock } from 'vitest';
import { SETTINGS_SAVED_BANNER_MS, type Setting } from '@plinth/shared';
import { ApiError } from '../lib/api-client';
import type { SaveSettingsResult, SettingChange } from '../lib/api/save-settings';
import { INHERITED_SETTING_TEXT, SettingsForm, type SettingsFormProps } from './SettingsForm';

const ORG = '00000000-0000-4000-8000-000000000001';
const SITE = '00000000-0000-4000-8000-000000000002';

function setting(idString: string, display: string, value: string, over: Partial<Setting> = {}): Setting {
  return { id: `id-${idString}`, idString, display, value, kind: 'text', OrganizationId: null, SiteId: SITE, ...over };
}

const siteSettings: Setting[] = [
  setting('time_zone', 'Time Zone', 'UTC', { OrganizationId: ORG, SiteId: null }),
  setting('site_location', 'Location', 'Hall A'),
  setting('opening_hours', 'Opening Hours', '9-5'),
];

type SaveOne = (setting: Setting, value: string) => Promise<unknown>;
type SaveOneMock = Mock<SaveOne>;

/**
 * The form with a save mutation that behaves as `useSaveSettings`: every change through
 * `saveSetting` at once, one outcome each, and `onSaved` (its refetch) when any was saved.
 */
function renderForm({ saveSetting = vi.fn<SaveOne>(async () => undefined), ...props }: Partial<Omit<SettingsFormProps, 'save'>> & { saveSetting?: SaveOneMock } = {}) {
  const onSaved = vi.fn();
  const settings = props.settings ?? siteSettings;
  const mutateAsync = async (changes: SettingChange[]) => {
    const results = await Promise.allSettled(changes.map((c) => saveSetting(settings.find((s) => s.idString === c.idString)!, c.value)));
    if (results.some((r) => r.status === 'fulfilled')) onSaved();
    return results as SaveSettingsResult;
  };
  render(
    <MantineProvider env="test">
      <SettingsForm settings={settings} canEdit isInherited={(s) => s.OrganizationId !== null} save={{ mutateAsync, isPending: false }} {...props} />
    </MantineProvider>,
  );
  return { saveSetting, onSaved };
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('SettingsForm', () => {
  it('marks a changed field Modified and clears the marker when the value is restored', () => {
    renderForm();
    expect(screen.queryByText('Modified')).not.toBeInTheDocument();
    const location = screen.getByRole('textbox', { name: /Location/ });
    fireEvent.change(location, { target: { value: 'Hall B' } });
    expect(screen.getAllByText('Modified')).toHaveLength(1);
    expect(screen.getByRole('textbox', { name: /Location/ })).toHaveAccessibleName(/Modified/);
    fireEvent.change(location, { target: { value: 'Hall A' } });
    expect(screen.queryByText('Modified')).not.toBeInTheDocument();
  });

  it('tells the screen whether there are unsaved edits: on an edit, off when restored or saved', async () => {
    const onDirtyChange = vi.fn();
    renderForm({ onDirtyChange });
    expect(onDirtyChange).toHaveBeenLastCalledWith(false);
    const location = screen.getByRole('textbox', { name: /Location/ });
    fireEvent.change(location, { target: { value: 'Hall B' } });
    expect(onDirtyChange).toHaveBeenLastCalledWith(true);
    fireEvent.change(location, { target: { value: 'Hall A' } });
    expect(onDirtyChange).toHaveBeenLastCalledWith(false);
    fireEvent.change(location, { target: { value: 'Hall C' } });
    expect(onDirtyChange).toHaveBeenLastCalledWith(true);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(onDirtyChange).toHaveBeenLastCalledWith(false);
  });

  it('disables inherited settings with the organization-level text', () => {
    renderForm();
    expect(screen.getByRole('textbox', { name: /Time Zone/ })).toBeDisabled();
    expect(screen.getByText(INHERITED_SETTING_TEXT)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Location/ })).toBeEnabled();
  });

  it('disables every input and hides Save when the role may not edit', () => {
    renderForm({ canEdit: false });
    for (const input of screen.getAllByRole('textbox')) expect(input).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });

  it('saves each changed setting together and shows "Settings saved." for 3 seconds', async () => {
    vi.useFakeTimers();
    const { saveSetting, onSaved } = renderForm();
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();

    fireEvent.change(screen.getByRole('textbox', { name: /Location/ }), { target: { value: 'Hall B' } });
    fireEvent.change(screen.getByRole('textbox', { name: /Opening Hours/ }), { target: { value: '10-6' } });
    await act(async () => {
      fireEvent.click(save);
    });

    expect(saveSetting).toHaveBeenCalledTimes(2);
    expect(saveSetting).toHaveBeenCalledWith(expect.objectContaining({ idString: 'site_location' }), 'Hall B');
    expect(saveSetting).toHaveBeenCalledWith(expect.objectContaining({ idString: 'opening_hours' }), '10-6');
    expect(onSaved).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('status')).toHaveTextContent('Settings saved.');
    expect(screen.queryByText('Modified')).not.toBeInTheDocument();

    act(() => vi.advanceTimersByTime(SETTINGS_SAVED_BANNER_MS - 1));
    expect(screen.getByText('Settings saved.')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Settings saved.')).not.toBeInTheDocument();
  });

  it('shows the error text when a setting fails to save and keeps it Modified', async () => {
    const saveSetting = vi.fn(async (s: Setting) => {
      if (s.idString === 'opening_hours') throw new Error('nope');
    });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderForm({ saveSetting });
    fireEvent.change(screen.getByRole('textbox', { name: /Location/ }), { target: { value: 'Hall B' } });
    fireEvent.change(screen.getByRole('textbox', { name: /Opening Hours/ }), { target: { value: '10-6' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    });
    expect(screen.getByRole('alert')).toHaveTextContent('There were errors in saving the settings.');
    expect(screen.queryByText('Settings saved.')).not.toBeInTheDocument();
    expect(screen.getAllByText('Modified')).toHaveLength(1);
    expect(screen.getByRole('textbox', { name: /Opening Hours/ })).toHaveAccessibleName(/Modified/);
  });

  it("shows the server's reason under the field it refused, with the required prefix as the hint, until the field is edited", async () => {
    const prefix = 'https://reports.example/';
    const reason = `The site report URL must start with ${prefix}`;
    const saveSetting = vi.fn(async (s: Setting) => {
      if (s.idString === 'external_report_url') throw new ApiError(400, { response: reason, code: 'BadRequest', message: reason }, reason);
    });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const report = setting('external_report_url', 'External Report URL', '', { kind: 'reportUrl' });
    renderForm({ settings: [report, setting('site_location', 'Location', 'Hall A')], reportUrlPrefix: prefix, saveSetting });
    const field = screen.getByRole('textbox', { name: /External Report URL/ });
    expect(field).toHaveAccessibleDescription(`Must start with ${prefix}`);
    fireEvent.change(field, { target: { value: 'https://elsewhere.example/r' } });
    fireEvent.change(screen.getByRole('textbox', { name: /Location/ }), { target: { value: 'Hall B' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    });
    expect(field).toHaveAccessibleDescription(new RegExp(reason));
    expect(field).toBeInvalid();
    expect(screen.getByRole('textbox', { name: /Location/ })).toBeValid();
    fireEvent.change(field, { target: { value: `${prefix}r` } });
    expect(screen.queryByText(reason)).not.toBeInTheDocument();
  });

  it('shows a refused part of a structured config under its input', async () => {
    const message = 'value.url: the content manager URL must be an http or https URL';
    const saveSetting = vi.fn(async () => {
      throw new ApiError(400, { response: message, code: 'BadRequest', message }, message);
    });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const analytics = setting('analytics_config', 'Analytics', JSON.stringify({ url: 'https://a.example', suiteId: 's1', exhibitIds: '' }), { kind: 'analytics' });
    renderForm({ settings: [analytics], isInherited: undefined, saveSetting });
    const group = screen.getByRole('group', { name: 'Analytics' });
    fireEvent.change(within(group).getByRole('textbox', { name: /^URL/ }), { target: { value: 'ftp://a.example' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    });
    expect(within(group).getByRole('textbox', { name: /^URL/ })).toHaveAccessibleDescription('The content manager URL must be an http or https URL');
  });

  it('edits the analytics config as JSON', async () => {
    const analytics = setting('analytics_config', 'Analytics', JSON.stringify({ url: 'https://a.example', suiteId: 's1', exhibitIds: '' }), {
      kind: 'analytics',
      OrganizationId: ORG,
      SiteId: null,
    });
    const { saveSetting } = renderForm({ settings: [analytics], isInherited: undefined });
    const group = screen.getByRole('group', { name: 'Analytics' });
    expect(within(group).queryByText('Modified')).not.toBeInTheDocument();
    fireEvent.change(within(group).getByRole('textbox', { name: /Exhibit IDs/ }), { target: { value: 'a,b' } });
    expect(within(group).getByText('Modified')).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    });
    expect(saveSetting).toHaveBeenCalledTimes(1);
    const sent = (saveSetting.mock.calls[0] as unknown as [Setting, string])[1];
    expect(JSON.parse(sent)).toEqual({ url: 'https://a.example', suiteId: 's1', exhibitIds: 'a,b' });
  });

  it('opens the content manager in a frame, or shows the server error', async () => {
    const cm = setting('content_manager_config', 'Content Manager', JSON.stringify({ url: 'https://cms.example' }), {
      kind: 'contentManager',
      OrganizationId: ORG,
      SiteId: null,
    });
    const getContentUrl = vi
      .fn<() => Promise<string>>()
      .mockResolvedValueOnce('https://cms.example/admin/auth/login?token=t1')
      .mockRejectedValueOnce(new Error('The external service did not answer as expected.'));
    renderForm({ settings: [cm], isInherited: undefined, getContentUrl });

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'View Organizational Content' }));
    });
    expect(screen.getByTitle('Organizational Content')).toHaveAttribute('src', 'https://cms.example/admin/auth/login?token=t1');

    fireEvent.click(screen.getByRole('button', { name: 'View Organizational Content' }));
    await act(async () => undefined);
    expect(screen.getByRole('alert')).toHaveTextContent('The external service did not answer as expected.');
  });
});

describe('SettingsForm: content-manager passwords (write-only)', () => {
  /** What the server answers: users and URL, and which passwords are stored. */
  const view = {
    url: 'https://cms.example',
    adminUser: 'admin@example.com',
    adminPassword: '',
    adminPasswordSet: true,
    editorUser: '',
    editorPassword: '',
    editorPasswordSet: false,
    apiUser: 'api',
    apiPassword: '',
    apiPasswordSet: true,
  };
  const contentManager = (value: object) =>
    setting('content_manager_config', 'Content Manager', JSON.stringify(value), { kind: 'contentManager', OrganizationId: ORG, SiteId: null });
  const sentValue = (saveSetting: ReturnType<typeof vi.fn>) => JSON.parse((saveSetting.mock.calls[0] as unknown as [Setting, string])[1]);

  it('shows a stored password as set, never its value, and replaces it only on demand', async () => {
    // Even a value an older server sent with a password in it is never shown.
    const { saveSetting } = renderForm({ settings: [contentManager({ ...view, adminPassword: 'old-secret' })], isInherited: undefined });
    const admin = screen.getByLabelText('Admin Password');
    expect(admin).toHaveValue('');
    expect(admin).toBeDisabled();
    expect(admin).toHaveAttribute('placeholder', expect.stringMatching(/set/i));
    expect(document.body.innerHTML).not.toContain('old-secret');
    expect(screen.getByLabelText('Editor Password')).toBeEnabled();
    expect(screen.getByLabelText('Editor Password')).toHaveValue('');
    expect(screen.queryByRole('button', { name: 'Replace Editor Password' })).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Replace Admin Password' }));
    expect(screen.getByLabelText('Admin Password')).toBeEnabled();
    expect(screen.getByLabelText('Admin Password')).toHaveValue('');
    fireEvent.change(screen.getByLabelText('Admin Password'), { target: { value: 'n3w-pass' } });
    expect(screen.getByText('Modified')).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    });
    expect(saveSetting).toHaveBeenCalledTimes(1);
    expect(sentValue(saveSetting)).toEqual({
      url: 'https://cms.example',
      adminUser: 'admin@example.com',
      adminPassword: 'n3w-pass',
      editorUser: '',
      editorPassword: '',
      apiUser: 'api',
      apiPassword: '',
    });
  });

  it('keeps a replacement it was asked to forget, and sends no password when only users change', async () => {
    const { saveSetting } = renderForm({ settings: [contentManager(view)], isInherited: undefined });
    fireEvent.click(screen.getByRole('button', { name: 'Replace API Password' }));
    fireEvent.change(screen.getByLabelText('API Password'), { target: { value: 'typo' } });
    fireEvent.click(screen.getByRole('button', { name: 'Keep the stored API Password' }));
    expect(screen.getByLabelText('API Password')).toBeDisabled();
    expect(screen.queryByText('Modified')).not.toBeInTheDocument();
    fireEvent.change(screen.getByRole('textbox', { name: 'Admin User' }), { target: { value: 'boss@example.com' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    });
    expect(sentValue(saveSetting)).toMatchObject({ adminUser: 'boss@example.com', adminPassword: '', apiPassword: '' });
  });

  it('asks for the stored passwords again when the URL changes', () => {
    renderForm({ settings: [contentManager(view)], isInherited: undefined });
    fireEvent.change(screen.getByRole('textbox', { name: 'URL' }), { target: { value: 'https://cms2.example' } });
    for (const label of ['Admin Password', 'API Password']) {
      expect(screen.getByLabelText(label)).toBeEnabled();
      expect(screen.queryByRole('button', { name: `Replace ${label}` })).not.toBeInTheDocument();
    }
    expect(screen.getAllByText(/URL changed: enter this password again/)).toHaveLength(2);
    fireEvent.change(screen.getByLabelText('Admin Password'), { target: { value: 'again' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'URL' }), { target: { value: 'https://cms.example' } });
    expect(screen.getByLabelText('Admin Password')).toBeDisabled();
    expect(screen.getByLabelText('Admin Password')).toHaveValue('');
    expect(screen.queryByText('Modified')).not.toBeInTheDocument();
  });

  it('disables the password actions for a role that may not edit', () => {
    renderForm({ settings: [contentManager(view)], isInherited: undefined, canEdit: false });
    expect(screen.getByLabelText('Admin Password')).toBeDisabled();
    expect(screen.queryByRole('button', { name: /Replace/ })).not.toBeInTheDocument();
  });
  it("edits a site's time zone with a searchable choice of IANA zones, empty being the server's", async () => {
    const saveSetting = vi.fn<SaveOne>(async () => undefined);
    renderForm({ saveSetting, settings: [setting('site_time_zone', 'Site Time Zone', '', { kind: 'timeZone' })] });
    const zone = screen.getByRole('textbox', { name: /Site Time Zone/ });
    expect(zone).toHaveValue('Server default');
    fireEvent.click(zone);
    fireEvent.change(zone, { target: { value: 'Europe/Par' } });
    fireEvent.click(await screen.findByRole('option', { name: 'Europe/Paris' }));
    expect(zone).toHaveValue('Europe/Paris');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(saveSetting).toHaveBeenCalledWith(expect.objectContaining({ idString: 'site_time_zone' }), 'Europe/Paris');
  });
});
