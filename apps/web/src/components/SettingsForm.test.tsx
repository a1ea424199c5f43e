import { MantineProvider } from '@mantine/core';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SETTINGS_SAVED_BANNER_MS, type Setting } from '@plinth/shared';
import { INHERITED_SETTING_TEXT, SettingsForm } from './SettingsForm';

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

function renderForm(props: Partial<Parameters<typeof SettingsForm>[0]> = {}) {
  const saveSetting = vi.fn(async () => undefined);
  const onSaved = vi.fn();
  render(
    <MantineProvider env="test">
      <SettingsForm
        settings={siteSettings}
        canEdit
        isInherited={(s) => s.OrganizationId !== null}
        saveSetting={saveSetting}
        onSaved={onSaved}
        {...props}
      />
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
