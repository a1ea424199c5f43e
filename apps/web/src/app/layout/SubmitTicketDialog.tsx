import { Alert, Button, Group, Modal, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { submitTicket } from '../../api/auth';
import { useClickGuard } from '../../components/useClickGuard';

const SUBJECT_MAX = 200;
const DESCRIPTION_MAX = 10_000;

/** The help-desk form of the top bar: the server mails the ticket to the support address. */
export function SubmitTicketDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [subject, setSubject] = useState('');
  const [description, setDescription] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (opened) {
      setSubject('');
      setDescription('');
      setSent(false);
      setError(null);
      setBusy(false);
    }
  }, [opened]);

  const canSubmit = subject.trim().length > 0 && description.trim().length > 0 && !busy;

  const submit = useClickGuard(() => {
    if (!canSubmit) return;
    setBusy(true);
    setError(null);
    submitTicket(subject.trim(), description.trim())
      .then(() => setSent(true))
      .catch((e: unknown) => setError(e instanceof Error ? e.message : 'The ticket could not be sent.'))
      .finally(() => setBusy(false));
  });

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Submit a Ticket" centered size="lg">
      {sent ? (
        <Stack>
          <Alert color="teal" variant="light" role="status" title="Ticket sent">
            Thank you. Your ticket was sent to Plinth support, who will answer you by email.
          </Alert>
          <Group justify="flex-end">
            <Button onClick={onClose}>Close</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={handleSubmit}>
          <Stack>
            <Text size="sm" c="dimmed">
              Describe the problem or question. Support will answer you at your account email.
            </Text>
            <TextInput
              label="Subject"
              required
              maxLength={SUBJECT_MAX}
              value={subject}
              onChange={(e) => setSubject(e.currentTarget.value)}
              data-autofocus
            />
            <Textarea
              label="Description"
              required
              autosize
              minRows={5}
              maxRows={14}
              maxLength={DESCRIPTION_MAX}
              value={description}
              onChange={(e) => setDescription(e.currentTarget.value)}
            />
            {error && (
              <Alert color="red" variant="light" role="alert" p="xs">
                {error}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" type="button" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" disabled={!canSubmit} loading={busy}>
                Submit
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
