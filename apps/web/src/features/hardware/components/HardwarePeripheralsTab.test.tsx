import { Notifications, notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Hardware } from '@plinth/shared';
import { queryKeys } from '../../../lib/query-keys';
import { FakeRealtime, HW, json, makeHardware, peripheral, prop, renderWithProviders, serve } from '../test/support';
import { HardwarePeripheralsTab } from './HardwarePeripheralsTab';

const peripherals = [
  peripheral('button1', 'Button', [prop('state', 'button', 0)]),
  peripheral('relay1', 'Relay', [prop('state', 'toggle', 0, { settable: 'true' })]),
  peripheral('trigger1', 'Trigger', [prop('fire', 'trigger', 0, { settable: 'true' })]),
  peripheral('byte1', 'Byte', [prop('value', 'uint', 42, { settable: 'true', min: 10, max: 255, displayType: 'hex' })]),
  peripheral('int1', 'Int32', [prop('value', 'int', -5, { settable: 'true', displayType: 'int' }), prop('reading', 'number', 21.5)]),
  peripheral('pwm1', 'PWM', [prop('duty', 'uint', 128, { settable: 'true' }), prop('frequency', 'uint', 1000, { hide: 'true' })]),
  peripheral('text1', 'Display Text', [prop('text', 'text', 'hello', { settable: 'true', max: 6 })]),
  peripheral('led1', 'LED', [prop('color', 'led', '255,10,20,30', { settable: 'true' })]),
];

function renderTab(overrides: Partial<Hardware> = {}, canOperate = true, realtime = new FakeRealtime()) {
  const hardware = makeHardware({ peripherals, numPeripherals: peripherals.length, ...overrides });
  return renderWithProviders(<HardwarePeripheralsTab hardware={hardware} canOperate={canOperate} />, {
    realtime,
    prefill: (client) => client.setQueryData(queryKeys.hardware(HW), hardware),
  });
}

const ok = () => json({ correlationId: 'c1', ok: true });

afterEach(() => {
  act(() => notifications.clean());
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('HardwarePeripheralsTab', () => {
  it('has the two titles and enables controls only in debug mode while online', () => {
    serve(() => undefined);
    const { unmount } = renderTab({ controlDebug: true, online: true });
    expect(screen.getByRole('heading', { name: 'Default Board Controls' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Peripherals' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reboot' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Identify' })).toBeEnabled();
    expect(screen.getByRole('switch', { name: 'Relay state' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Trigger' })).toBeEnabled();
    unmount();

    for (const state of [
      { controlDebug: false, online: true },
      { controlDebug: true, online: false },
    ]) {
      const r = renderTab(state);
      expect(screen.getByRole('button', { name: 'Reboot' })).toBeDisabled();
      expect(screen.getByRole('button', { name: 'Identify' })).toBeDisabled();
      expect(screen.getByRole('switch', { name: 'Relay state' })).toBeDisabled();
      expect(screen.getByRole('button', { name: 'Trigger' })).toBeDisabled();
      expect(screen.getByRole('textbox', { name: 'Byte value' })).toBeDisabled();
      r.unmount();
    }

    renderTab({ controlDebug: true, online: true }, false);
    expect(screen.getByRole('button', { name: 'Reboot' })).toBeDisabled();
  });

  it('offers Sync Hardware Values only from Plinth firmware 46', () => {
    serve(() => undefined);
    const { unmount } = renderTab({ plinth_fw: '45' });
    expect(screen.queryByRole('button', { name: 'Sync Hardware Values' })).not.toBeInTheDocument();
    unmount();
    const r = renderTab({ plinth_fw: null });
    expect(screen.queryByRole('button', { name: 'Sync Hardware Values' })).not.toBeInTheDocument();
    r.unmount();
    renderTab({ plinth_fw: '46' });
    expect(screen.getByRole('button', { name: 'Sync Hardware Values' })).toBeEnabled();
  });

  it('sends the default board commands', async () => {
    const calls = serve((call) => (call.path.startsWith(`/hardware-mgmt/hardware/${HW}/`) ? ok() : undefined));
    renderTab();
    await userEvent.click(screen.getByRole('button', { name: 'Sync Hardware Values' }));
    await waitFor(() => expect(calls.map((c) => `${c.method} ${c.path}`)).toContain(`GET /hardware-mgmt/hardware/${HW}/get`));
  });

  it('asks before a reboot: Cancel sends nothing, Reboot says it was sent and then what the board answered', async () => {
    const calls = serve((call) => (call.path.startsWith(`/hardware-mgmt/hardware/${HW}/`) ? ok() : undefined));
    const hardware = makeHardware({ peripherals });
    renderWithProviders(
      <>
        <Notifications />
        <HardwarePeripheralsTab hardware={hardware} canOperate />
      </>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Reboot' }));
    const question = await screen.findByRole('dialog', { name: 'Reboot Board A' });
    expect(question).toHaveTextContent('This restarts 1 board, Board A');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Reboot' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Reboot Board A' })).getByRole('button', { name: 'Reboot' }));
    expect(await screen.findByText('Reboot was sent to Board A.')).toBeInTheDocument();
    expect(await screen.findByText('Board A answered: Reboot done.')).toBeInTheDocument();
    expect(calls.map((c) => c.path)).toEqual([`/hardware-mgmt/hardware/${HW}/reboot`]);
  });

  it('says when the board did not answer Identify in time', async () => {
    serve((call) => (call.path === `/hardware-mgmt/hardware/${HW}/identify` ? json({ correlationId: 'c1', ok: false, error: 'timeout' }) : undefined));
    renderWithProviders(
      <>
        <Notifications />
        <HardwarePeripheralsTab hardware={makeHardware({ peripherals })} canOperate />
      </>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Identify' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await screen.findByText('Identify was sent to Board A.')).toBeInTheDocument();
    expect(await screen.findByText('Board A did not answer Identify within 10 seconds.')).toBeInTheDocument();
  });

  it('hides hidden props and shows props that are not settable read-only', () => {
    serve(() => undefined);
    renderTab();
    const pwm = screen.getByTestId('peripheral-PWM');
    expect(within(pwm).getByText('duty')).toBeInTheDocument();
    expect(within(pwm).queryByText('frequency')).not.toBeInTheDocument();
    const int = screen.getByTestId('prop-Int32-reading');
    expect(within(int).getByText('21.5')).toBeInTheDocument();
    expect(within(int).queryByRole('textbox', { name: 'Int32 reading' })).not.toBeInTheDocument();
    expect(within(int).queryByRole('button', { name: 'Send' })).not.toBeInTheDocument();
    expect(within(screen.getByTestId('prop-Button-state')).queryByRole('button')).not.toBeInTheDocument();
  });

  it('sends the flipped value of a toggle and 1 for a trigger', async () => {
    const calls = serve((call) => (call.method === 'PUT' ? ok() : undefined));
    renderTab();
    await userEvent.click(screen.getByRole('switch', { name: 'Relay state' }));
    await userEvent.click(screen.getByRole('button', { name: 'Trigger' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(2));
    const puts = calls.filter((c) => c.method === 'PUT');
    expect(puts[0]).toMatchObject({ path: `/hardware-mgmt/peripheral/${HW}/relay1/state`, body: { value: 1 } });
    expect(puts[0]!.body).toEqual({ value: 1 });
    expect(puts[1]).toMatchObject({ path: `/hardware-mgmt/peripheral/${HW}/trigger1/fire`, body: { value: 1 } });
  });

  it('shows number values in their display type and the min and max messages', async () => {
    const calls = serve((call) => (call.method === 'PUT' ? ok() : undefined));
    renderTab();
    expect(screen.getByTestId('value-Byte-value')).toHaveTextContent('0x2A');
    const input = screen.getByRole('textbox', { name: 'Byte value' });
    const send = within(screen.getByTestId('prop-Byte-value')).getByRole('button', { name: 'Send' });
    expect(send).toBeDisabled();

    await userEvent.type(input, '5');
    expect(screen.getByText('Number must be above minimum value of 10')).toBeInTheDocument();
    expect(send).toBeDisabled();
    await userEvent.clear(input);
    await userEvent.type(input, '1FF');
    expect(input).toHaveValue('1FF');
    expect(screen.getByText('Number must be below maximum value of 255')).toBeInTheDocument();
    await userEvent.clear(input);
    await userEvent.type(input, 'zz0x3g0');
    expect(input).toHaveValue('0x30');
    expect(send).toBeEnabled();

    // Switching to bin rewrites the current value and the typed one.
    await userEvent.click(screen.getByRole('textbox', { name: 'Byte value display type' }));
    await userEvent.click(await screen.findByRole('option', { name: 'bin' }));
    expect(screen.getByTestId('value-Byte-value')).toHaveTextContent('0b101010');
    expect(input).toHaveValue('0b110000');
    await userEvent.click(send);
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')).toMatchObject({ path: `/hardware-mgmt/peripheral/${HW}/byte1/value`, body: { value: 48 } }));
  });

  it('offers only hex, bin and uint for unsigned props and lets int accept a minus', async () => {
    serve(() => undefined);
    renderTab();
    await userEvent.click(screen.getByRole('textbox', { name: 'Byte value display type' }));
    const options = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(options).toEqual(['hex', 'bin', 'uint']);
    await userEvent.keyboard('{Escape}');

    const int = screen.getByRole('textbox', { name: 'Int32 value' });
    await userEvent.type(int, '-12x');
    expect(int).toHaveValue('-12');
    const duty = screen.getByRole('textbox', { name: 'PWM duty' });
    await userEvent.type(duty, '-12');
    expect(duty).toHaveValue('12');
  });

  it('shows Invalid data entered... when a send fails', async () => {
    serve((call) => (call.method === 'PUT' ? json({ response: 'Conflict', code: 'Conflict', message: 'refused' }, 409) : undefined));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderTab();
    const text = screen.getByRole('textbox', { name: 'Display Text text' });
    expect(text).toHaveAttribute('maxLength', '5');
    await userEvent.type(text, 'abc');
    await userEvent.click(within(screen.getByTestId('prop-Display Text-text')).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Invalid data entered...')).toBeInTheDocument();
  });

  it('sends all LED channels and keeps Send disabled while one is empty', async () => {
    const calls = serve((call) => (call.method === 'PUT' ? ok() : undefined));
    renderTab();
    const led = screen.getByTestId('prop-LED-color');
    const send = within(led).getByRole('button', { name: 'Send' });
    const red = within(led).getByRole('textbox', { name: 'LED color Red' });
    expect(red).toHaveValue('10');
    await userEvent.clear(red);
    expect(send).toBeDisabled();
    await userEvent.type(red, '99');
    await userEvent.click(send);
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')).toMatchObject({ path: `/hardware-mgmt/peripheral/${HW}/led1/color`, body: { value: '255,99,20,30' } }));
  });

  it('blinks a button for one second on a live press', () => {
    serve(() => undefined);
    vi.useFakeTimers();
    const realtime = new FakeRealtime();
    renderTab({}, true, realtime);
    const blinker = screen.getByTestId('blinker-Button-state');
    expect(blinker).toHaveAttribute('data-state', 'idle');
    act(() => {
      realtime.emit({ type: 'hardware.propChanged', hardwareId: HW, peripheralId: 'button1', propType: 'button', propName: 'state', value: 1, periphName: 'Button' });
    });
    expect(blinker).toHaveAttribute('data-state', 'pressed');
    expect(blinker).toHaveTextContent('Pressed');
    act(() => {
      vi.advanceTimersByTime(999);
    });
    expect(blinker).toHaveAttribute('data-state', 'pressed');
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(blinker).toHaveAttribute('data-state', 'idle');
    // A press of another hardware unit does not blink.
    act(() => {
      realtime.emit({ type: 'hardware.propChanged', hardwareId: '00000000-0000-4000-8000-0000000000f2', peripheralId: 'button1', propType: 'button', propName: 'state', value: 1, periphName: 'Button' });
    });
    expect(blinker).toHaveAttribute('data-state', 'idle');
  });
});
