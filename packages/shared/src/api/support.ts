import { z } from 'zod';

/** GET /config: what the console needs to know about this installation before anyone signs in. */
export const PublicConfigSchema = z.object({
  supportEmail: z.string(),
  /** Where the product analytics client sends events; null keeps it a no-op. */
  analyticsUrl: z.string().nullable(),
  /** The MQTT port boards connect to, for the help pages. */
  mqttPort: z.number().int(),
  reportUrlPrefix: z.string(),
  /** The largest file an upload may carry (MAX_FILE_BYTES), so the console refuses a larger one before sending it. */
  maxFileBytes: z.number(),
});
export type PublicConfig = z.infer<typeof PublicConfigSchema>;

/** POST /support/ticket: a message to the installation's support address. */
export const SupportTicketBody = z.object({
  subject: z.string().trim().min(1, { message: 'must not be empty' }).max(200),
  description: z.string().trim().min(1, { message: 'must not be empty' }).max(10_000),
});
