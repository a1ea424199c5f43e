import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Firmware, FirmwareList, Hardware } from '@plinth/shared';
import { HW, json, makeHardware, renderWithProviders, serve, SITE } from '../test/support';
import { FIRMWARE_APPLYING_MESSAGE, UPDATE_OFFLINE_WARNING } from './FirmwarePanel';
import { HardwareFirmwareTab } from './HardwareFirmwareTab';

const FW1 = '00000000-0000-4000-8000-0000000000a1';

function firmware(overrides: Partial<Firmware> = {}): Firmware {
  return {
    id: FW1,
    name: 'Release',
    version: '46',
    fileName: 'release.gbm0',
    fileSize: '2048',
    createdAt: '2026-02-01T09:00:00.000Z',
    hardwareId: HW,
    isPlinthFirmware: true,
    ...overrides,
  };
}

function list(overrides: Partial<FirmwareList> = {}): FirmwareList {
  return {
    plinthFirmware: [],
    userFirmware: [],
    plinthFirmwareHistory: [],
    userFirmwareHistory: [],
    currentPlinthVersion: null,
    currentUserVersion: null,
    ...overrides,
  };
}

function renderTab(hardware: Hardware, canOperate = true) {
  return renderWithProviders(<HardwareFirmwareTab hardware={hardware} canOperate={canOperate} />);
}

const panel = (name: string) => screen.getByRole('region', { name });
const PLINTH = 'Plinth Firmware (.gbm0)';
const USER = 'User Firmware (.gbm4)';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('HardwareFirmwareTab', () => {
  it('shows both panels with their empty texts', async () => {
    serve((call) => (call.path === '/hardware-mgmt/firmware' ? json(list()) : undefined));
    renderTab(makeHardware({ plinth_fw: null, user_fw: '3.1' }));
    const plinth = await screen.findByRole('region', { name: PLINTH });
    expect(within(plinth).getByText('No current firmware')).toBeInTheDocument();
    expect(within(plinth).getByText('No firmware available')).toBeInTheDocument();
    expect(within(plinth).getByText('No history available')).toBeInTheDocument();
    const user = panel(USER);
    expect(within(user).getByText('Current firmware not found in available firmware. Current firmware version: 3.1')).toBeInTheDocument();
    expect(within(user).getByText('No firmware available')).toBeInTheDocument();
  });

  it('validates an upload and sends the file, then the record', async () => {
    const calls = serve((call) => {
      if (call.path === '/hardware-mgmt/firmware' && call.method === 'GET') return json(list());
      if (call.path === '/content/firmware/upload') return json({ fileName: 'new.gbm0', fileSize: '5' });
      if (call.path === '/hardware-mgmt/firmware' && call.method === 'POST') return json(firmware());
      return undefined;
    });
    const user = userEvent.setup({ applyAccept: false });
    renderTab(makeHardware());
    await user.click(within(await screen.findByRole('region', { name: PLINTH })).getByRole('button', { name: 'Upload' }));
    const dialog = await screen.findByRole('dialog');
    const upload = within(dialog).getByRole('button', { name: 'Upload' });
    expect(upload).toBeDisabled();

    await user.type(within(dialog).getByLabelText('Name'), 'My "best"/fw\\1');
    expect(within(dialog).getByLabelText('Name')).toHaveValue('My bestfw1');
    await user.type(within(dialog).getByLabelText('Version'), '1.2.3');
    expect(within(dialog).getByText('Invalid version: The version needs to be in the format Major.Minor')).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Version'));
    await user.type(within(dialog).getByLabelText('Version'), '47.1');
    expect(upload).toBeDisabled();

    const input = dialog.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File(['abc'], 'wrong.gbm4'));
    expect(within(dialog).getByText('Invalid file type: This file needs to be a .gbm0 file.')).toBeInTheDocument();
    expect(upload).toBeDisabled();
    await user.upload(input, new File(['hello'], 'new.gbm0'));
    expect(within(dialog).queryByText(/Invalid file type/)).not.toBeInTheDocument();
    expect(upload).toBeEnabled();
    await user.click(upload);

    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/hardware-mgmt/firmware')).toBe(true));
    const file = calls.find((c) => c.path === '/content/firmware/upload')!;
    expect(file.method).toBe('POST');
    expect(file.query.get('hardwareId')).toBe(HW);
    expect(file.query.get('siteId')).toBe(SITE);
    expect(file.body).toBeInstanceOf(FormData);
    expect(((file.body as FormData).get('file') as File).name).toBe('new.gbm0');
    expect(calls.find((c) => c.method === 'POST' && c.path === '/hardware-mgmt/firmware')!.body).toEqual({
      hardwareId: HW,
      isPlinthFirmware: true,
      fileName: 'new.gbm0',
      name: 'My bestfw1',
      fileSize: '5',
      version: '47.1',
    });
  });

  it('switches Upload to Update and Delete on selection; Update needs the hardware online', async () => {
    serve((call) => (call.path === '/hardware-mgmt/firmware' ? json(list({ plinthFirmware: [firmware()] })) : undefined));
    renderTab(makeHardware({ online: false, plinth_fw: '46' }));
    const plinth = await screen.findByRole('region', { name: PLINTH });
    expect(within(plinth).getByText('Release (version 46)')).toBeInTheDocument();
    expect(within(plinth).getByRole('columnheader', { name: 'Filesize' })).toBeInTheDocument();
    expect(within(plinth).getByText('2.05 kB')).toBeInTheDocument();

    const row = within(plinth).getByRole('row', { name: /Release/ });
    await userEvent.click(row);
    expect(row).toHaveAttribute('aria-selected', 'true');
    expect(within(plinth).queryByRole('button', { name: 'Upload' })).not.toBeInTheDocument();
    expect(within(plinth).getByRole('button', { name: 'Update' })).toBeDisabled();
    expect(within(plinth).getByRole('button', { name: 'Delete' })).toBeEnabled();
    expect(within(plinth).getByText(UPDATE_OFFLINE_WARNING)).toBeInTheDocument();

    await userEvent.click(row);
    expect(within(plinth).getByRole('button', { name: 'Upload' })).toBeInTheDocument();
    expect(within(plinth).queryByRole('button', { name: 'Update' })).not.toBeInTheDocument();
  });

  it('pushes the selected firmware and explains the background update', async () => {
    const calls = serve((call) => {
      if (call.path === '/hardware-mgmt/firmware') return json(list({ plinthFirmware: [firmware()] }));
      if (call.path === `/hardware-mgmt/firmware/${FW1}/upload`) {
        return json({ correlationId: 'c1', history: { id: 'h1', FirmwareId: FW1, createdAt: '', version: '46', name: 'Release', status: 'pending', error: null } });
      }
      return undefined;
    });
    renderTab(makeHardware({ online: true }));
    const plinth = await screen.findByRole('region', { name: PLINTH });
    await userEvent.click(within(plinth).getByRole('row', { name: /Release/ }));
    expect(within(plinth).queryByText(UPDATE_OFFLINE_WARNING)).not.toBeInTheDocument();
    await userEvent.click(within(plinth).getByRole('button', { name: 'Update' }));
    // It asks first, naming the firmware and the one board; nothing is pushed before Update.
    const question = await screen.findByRole('dialog', { name: 'Update firmware' });
    expect(question).toHaveTextContent('Install Release (version 46) on 1 board, Board A?');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await userEvent.click(within(question).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText(FIRMWARE_APPLYING_MESSAGE)).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST' && c.path === `/hardware-mgmt/firmware/${FW1}/upload`)).toBe(true);
  });

  it('deletes the record, then its file', async () => {
    const calls = serve((call) => {
      if (call.path === '/hardware-mgmt/firmware') return json(list({ plinthFirmware: [firmware()] }));
      if (call.method === 'DELETE') return json({ ok: true });
      return undefined;
    });
    renderTab(makeHardware());
    const plinth = await screen.findByRole('region', { name: PLINTH });
    await userEvent.click(within(plinth).getByRole('row', { name: /Release/ }));
    await userEvent.click(within(plinth).getByRole('button', { name: 'Delete' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(2));
    const deletes = calls.filter((c) => c.method === 'DELETE');
    expect(deletes[0]!.path).toBe(`/hardware-mgmt/firmware/${FW1}`);
    expect(deletes[1]!.path).toBe('/content/firmware');
    expect(deletes[1]!.query.get('firmware')).toBe('release.gbm0');
  });

  it('shows no upload, update or delete to a viewer', async () => {
    serve((call) => (call.path === '/hardware-mgmt/firmware' ? json(list({ plinthFirmware: [firmware()] })) : undefined));
    renderTab(makeHardware(), false);
    const plinth = await screen.findByRole('region', { name: PLINTH });
    expect(within(plinth).queryByRole('button', { name: 'Upload' })).not.toBeInTheDocument();
    await userEvent.click(within(plinth).getByRole('row', { name: /Release/ }));
    expect(within(plinth).queryByRole('button', { name: 'Update' })).not.toBeInTheDocument();
  });
});
