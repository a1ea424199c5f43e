import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { isValidMqttPath, MQTT_PATH_MESSAGE } from '@plinth/shared';
import { useClickGuard } from './useClickGuard';
import { DialogError } from './dialogs/DialogError';

export type CreateExhibitDialogProps = {
  opened: boolean;
  onClose: () => void;
  /** Creates the exhibit (and sets its MQTT address when one was given); a thrown error's message is shown. */
  onSubmit: (name: string, mqttPath: string) => Promise<void>;
};

/**
 * Create Exhibit: a name and an optional 'MQTT IP Address' (empty, '{ip}:0' or ip:port). Create is
 * disabled while the name is empty or the address is invalid.
 */
export function CreateExhibitDialog({ opened, onClose, onSubmit }: CreateExhibitDialogProps) {
  const [name, setName] = useState('');
  const [mqttPath, setMqttPath] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (opened) {
      setName('');
      setMqttPath('');
      setError(null);
      setBusy(false);
    }
  }, [opened]);

  const cleanName = name.trim();
  const cleanPath = mqttPath.trim();
  const pathValid = isValidMqttPath(cleanPath);
  const disabled = busy || cleanName.length === 0 || !pathValid;

  const submit = useClickGuard(() => {
    if (disabled) return;
    setBusy(true);
    setError(null);
    onSubmit(cleanName, cleanPath)
      .then(() => onClose())
      .catch((e: unknown) => setError(e instanceof Error && e.message ? e.message : 'Error: Could not create Exhibit'))
      .finally(() => setBusy(false));
  });

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Create Exhibit" centered>
      <form onSubmit={handleSubmit}>
        <Stack>
          <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} data-autofocus maxLength={200} />
          <TextInput
            label="MQTT IP Address"
            placeholder="###.###.###.###:####"
            value={mqttPath}
            onChange={(e) => setMqttPath(e.currentTarget.value)}
            error={pathValid ? undefined : MQTT_PATH_MESSAGE}
          />
          <DialogError message={error} />
          <Group justify="flex-end">
            <Button variant="default" type="button" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={disabled} loading={busy}>
              Create
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
