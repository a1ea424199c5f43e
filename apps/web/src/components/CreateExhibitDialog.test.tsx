import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { MQTT_PATH_MESSAGE } from '@plinth/shared';
import { MutationHarness, renderWithClient } from '../test/mutation-harness';
import { CreateExhibitDialog } from './CreateExhibitDialog';

/** The dialog over a real mutation running `onSubmit`, as the site screen gives it one. */
function renderDialog(onSubmit: (name: string, mqttPath: string) => Promise<unknown>) {
  renderWithClient(
    <MutationHarness fn={({ name, mqttPath }: { name: string; mqttPath: string }) => onSubmit(name, mqttPath)}>
      {(mutation) => (
        <CreateExhibitDialog opened onClose={() => undefined} onSubmit={(name, mqttPath) => mutation.mutateAsync({ name, mqttPath })} mutation={mutation} />
      )}
    </MutationHarness>,
  );
}

describe('CreateExhibitDialog', () => {
  it('validates the MQTT IP Address and sends name and address', async () => {
    const onSubmit = vi.fn(async () => undefined);
    renderDialog(onSubmit);
    const create = screen.getByRole('button', { name: 'Create' });
    expect(create).toBeDisabled();
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Star Dome');
    expect(create).toBeEnabled();

    const mqtt = screen.getByRole('textbox', { name: 'MQTT IP Address' });
    await userEvent.type(mqtt, '300.1.1.1:80');
    expect(screen.getByText(MQTT_PATH_MESSAGE)).toBeInTheDocument();
    expect(create).toBeDisabled();

    await userEvent.clear(mqtt);
    await userEvent.type(mqtt, '10.0.0.5:1883');
    expect(screen.queryByText(MQTT_PATH_MESSAGE)).not.toBeInTheDocument();
    await userEvent.click(create);
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith('Star Dome', '10.0.0.5:1883'));
  });

  it('shows the fallback when creation fails without a message', async () => {
    renderDialog(() => Promise.reject(new Error('')));
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Star Dome{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Could not create Exhibit');
  });
});
