import { Badge, Button, Group, Loader, Modal, Radio, ScrollArea, Stack, Text } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import type { Exhibit } from '@plinth/shared';
import { DialogError } from '../../../components/dialogs/DialogError';
import { useClickGuard } from '../../../components/useClickGuard';

export type ConnectExhibitDialogProps = {
  opened: boolean;
  onClose: () => void;
  exhibits: Exhibit[];
  isLoading?: boolean;
  /** The exhibit the hardware is connected to now, preselected when editing. */
  currentExhibitId: string | null;
  onConnect: (exhibitId: string) => Promise<void>;
};

/** Connect to Exhibit (spec 2.13): the site's exhibits with their online state; Connect needs a selection. */
export function ConnectExhibitDialog({ opened, onClose, exhibits, isLoading, currentExhibitId, onConnect }: ConnectExhibitDialogProps) {
  const [selected, setSelected] = useState<string | null>(currentExhibitId);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (opened) {
      setSelected(currentExhibitId);
      setError(null);
      setBusy(false);
    }
  }, [opened, currentExhibitId]);

  const sorted = [...exhibits].sort((a, b) => a.name.localeCompare(b.name));
  const connect = useClickGuard(() => {
    if (!selected) return;
    setBusy(true);
    onConnect(selected)
      .then(() => onClose())
      .catch((e: unknown) => setError(e instanceof Error && e.message ? e.message : 'Could not connect to the exhibit.'))
      .finally(() => setBusy(false));
  });
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    connect();
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Connect to Exhibit" centered>
      <form onSubmit={handleSubmit}>
        <Stack>
          {isLoading ? (
            <Loader aria-label="Loading exhibits" />
          ) : sorted.length === 0 ? (
            <Text c="dimmed">No exhibits available.</Text>
          ) : (
            <ScrollArea.Autosize mah={320}>
              <Radio.Group value={selected ?? ''} onChange={setSelected} aria-label="Exhibits">
                <Stack gap="xs">
                  {sorted.map((exhibit) => (
                    <Group key={exhibit.id} justify="space-between" wrap="nowrap">
                      <Radio value={exhibit.id} label={exhibit.name} />
                      <Badge color={exhibit.online ? 'teal' : 'gray'} variant="light" size="sm">
                        {exhibit.online ? 'Online' : 'Offline'}
                      </Badge>
                    </Group>
                  ))}
                </Stack>
              </Radio.Group>
            </ScrollArea.Autosize>
          )}
          <DialogError message={error} />
          <Group justify="flex-end">
            <Button variant="default" type="button" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!selected || busy} loading={busy}>
              Connect
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
