import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { SupportTicketBody } from '@plinth/shared';
import { api } from '../../../lib/api-client';

/** The ticket form, checked as the server checks it: subject and description required (trimmed). */
export const submitTicketInputSchema = SupportTicketBody;

export type SubmitTicketInput = z.input<typeof SupportTicketBody>;

/** POST /support/ticket: the server mails the ticket to the support address. */
export const submitTicket = ({ subject, description }: SubmitTicketInput) =>
  api.post<{ ok: true }>('/support/ticket', { subject: subject.trim(), description: description.trim() });

/** Sends a ticket; nothing cached changes. */
export function useSubmitTicket() {
  return useMutation({ mutationFn: submitTicket });
}
