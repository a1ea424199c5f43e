import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ContentFile, SettingValue } from '@plinth/shared';
import { EXHIBIT, json, ORG, renderWith, serve, SITE } from '../../test/fixtures';
import { FileSelectionField, fileSelectionOptions, MISSING_FILE_MESSAGE } from './FileSelectionField';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const file = (name: string, organizational = false): ContentFile => ({ name, updated_at: '2026-01-01T00:00:00.000Z', size: 1, organizational, sha256: null });
const FILES = [file('b.mp4'), file('[ORG] logo.svg', true), file('a.mp4')];

describe('fileSelectionOptions', () => {
  it('offers the exhibit files, then the organizational ones, each by name', () => {
    expect(fileSelectionOptions(FILES, 'a.mp4')).toEqual([
      { group: 'Exhibit files', items: [{ value: 'a.mp4', label: 'a.mp4' }, { value: 'b.mp4', label: 'b.mp4' }] },
      { group: 'Organizational files', items: [{ value: '[ORG] logo.svg', label: '[ORG] logo.svg' }] },
    ]);
  });

  it('keeps a current value whose file is gone, marked missing', () => {
    expect(fileSelectionOptions([file('a.mp4')], 'old.mp4')).toEqual([
      { group: 'Current value', items: [{ value: 'old.mp4', label: 'old.mp4 (missing)' }] },
      { group: 'Exhibit files', items: [{ value: 'a.mp4', label: 'a.mp4' }] },
    ]);
    expect(fileSelectionOptions([], '')).toEqual([]);
  });
});

function Field({ initial, onChange }: { initial: string; onChange: (v: SettingValue) => void }) {
  const [value, setValue] = useState<SettingValue>(initial);
  return (
    <FileSelectionField
      label="Attract video"
      value={value}
      disabled={false}
      onChange={(v) => {
        setValue(v);
        onChange(v);
      }}
    />
  );
}

function renderField(initial: string, files: ContentFile[] = FILES) {
  const calls = serve((call) => (call.path === '/content/files/ls' ? json({ files, errors: [] }) : undefined));
  const onChange = vi.fn();
  renderWith(
    <Routes>
      <Route path="/organization/:orgId/site/:siteId/exhibits/:exhibitId/:exhibitTab" element={<Field initial={initial} onChange={onChange} />} />
    </Routes>,
    undefined,
    `/organization/${ORG}/site/${SITE}/exhibits/${EXHIBIT}/settings`,
  );
  return { calls, onChange };
}

describe('FileSelectionField', () => {
  it("lists the screen's exhibit files, searchable, and saves the chosen name", async () => {
    const { calls, onChange } = renderField('');
    const user = userEvent.setup();
    const input = screen.getByRole('textbox', { name: 'Attract video' });
    await waitFor(() => expect(calls.some((c) => c.path === '/content/files/ls')).toBe(true));
    expect(calls[0]!.query).toBe(`?exhibitId=${EXHIBIT}&siteId=${SITE}`);
    await user.click(input);
    expect(await screen.findByRole('option', { name: 'a.mp4' })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: '[ORG] logo.svg' })).toBeInTheDocument();
    await user.type(input, 'b.m');
    expect(screen.queryByRole('option', { name: 'a.mp4' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'b.mp4' }));
    expect(onChange).toHaveBeenLastCalledWith('b.mp4');
    expect(input).toHaveValue('b.mp4');
  });

  it('shows a value whose file is gone as missing, and clears to an empty name', async () => {
    const { onChange } = renderField('old.mp4');
    const user = userEvent.setup();
    const input = screen.getByRole('textbox', { name: 'Attract video' });
    expect(await screen.findByText(MISSING_FILE_MESSAGE)).toBeInTheDocument();
    expect(input).toHaveValue('old.mp4 (missing)');
    await user.click(screen.getByRole('button', { name: 'Clear Attract video' }));
    expect(onChange).toHaveBeenLastCalledWith('');
    await waitFor(() => expect(screen.queryByText(MISSING_FILE_MESSAGE)).not.toBeInTheDocument());
  });
});
