import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { MQTT_PATH_MESSAGE } from '@plinth/shared';
import { CreateExhibitDialog } from './CreateExhibitDialog';

describe('CreateExhibitDialog', () => {
  it('validates the MQTT IP Address and sends name and address', async () => {
    const onSubmit = vi.fn(async () => undefined);
    render(
      <MantineProvider env="test">
        <CreateExhibitDialog opened onClose={() => undefined} onSubmit={onSubmit} />
      </MantineProvider>,
    );
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
    render(
      <MantineProvider env="test">
        <CreateExhibitDialog opened onClose={() => undefined} onSubmit={() => Promise.reject(new Error(''))} />
      </MantineProvider>,
    );
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Star Dome{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Could not create Exhibit');
  });
});
