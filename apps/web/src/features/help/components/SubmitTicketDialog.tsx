import { Alert, Button, Group, Modal, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { DialogError } from '../../../components/dialogs/DialogError';
import { useClickGuard } from '../../../components/useClickGuard';
import { errorText } from '../../../lib/mutation-state';
import { schemaResolver } from '../../../lib/schema-resolver';
import { submitTicketInputSchema, useSubmitTicket, type SubmitTicketInput } from '../api/submit-ticket';

const SUBJECT_MAX = 200;
const DESCRIPTION_MAX = 10_000;

/** The help-desk form of the top bar: the server mails the ticket to the support address. */
export function SubmitTicketDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const ticket = useSubmitTicket();
  const form = useForm<SubmitTicketInput>({ initialValues: { subject: '', description: '' }, validate: schemaResolver(submitTicketInputSchema) });
  const { reset: resetTicket } = ticket;
  const { reset: resetForm } = form;

  useEffect(() => {
    if (!opened) return;
    resetForm();
    resetTicket();
  }, [opened, resetForm, resetTicket]);

  const canSubmit = form.isValid() && !ticket.isPending;
  const submit = useClickGuard(() => {
    if (canSubmit) ticket.mutate(form.getValues());
  });

  const handleSubmit = form.onSubmit(() => submit());

  return (
    <Modal opened={opened} onClose={onClose} title="Submit a Ticket" centered size="lg">
      {ticket.isSuccess ? (
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
            <TextInput label="Subject" required maxLength={SUBJECT_MAX} {...form.getInputProps('subject', { withError: false })} data-autofocus />
            <Textarea
              label="Description"
              required
              autosize
              minRows={5}
              maxRows={14}
              maxLength={DESCRIPTION_MAX}
              {...form.getInputProps('description', { withError: false })}
            />
            <DialogError message={ticket.error ? errorText(ticket.error, 'The ticket could not be sent.') : null} />
            <Group justify="flex-end">
              <Button variant="default" type="button" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" disabled={!canSubmit} loading={ticket.isPending}>
                Submit
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
