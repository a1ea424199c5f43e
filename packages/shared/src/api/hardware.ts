import { z } from 'zod';
import { Id, IsoDate, Name, SitePlacedSchema, UpperRoleSchema } from './common.js';
import { PropValueSchema } from '../values.js';

export const PropSchema = z.object({
  name: z.string(),
  type: z.string(),
  value: PropValueSchema,
  /** 'true' or 'false', as the boards send it. */
  settable: z.string(),
  hide: z.string(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  displayType: z.string().nullable(),
});
export type Prop = z.infer<typeof PropSchema>;

export const PeripheralSchema = z.object({ id: z.string(), name: z.string(), props: z.array(PropSchema) });
export type Peripheral = z.infer<typeof PeripheralSchema>;

export const HardwareSchema = SitePlacedSchema.extend({
  exhibitId: Id.nullable(),
  exhibitName: z.string().nullable(),
  online: z.boolean(),
  /** Attached to an exhibit. */
  connected: z.boolean(),
  controlDebug: z.boolean(),
  ip: z.string().nullable(),
  mac: z.string().nullable(),
  plinth_fw: z.string().nullable(),
  user_fw: z.string().nullable(),
  numPeripherals: z.number().int(),
  voltage: z.number().nullable(),
  temp: z.number().nullable(),
  /** Minutes. */
  uptime: z.number().nullable(),
  exhibitState: z.string().nullable(),
  exhibitIP: z.string().nullable(),
  peripherals: z.array(PeripheralSchema),
  firmware: z.unknown().nullable(),
  /** Board messages that failed validation and were dropped (the board's health); absent from older servers. */
  invalidMessages: z.number().int().optional(),
  /** Why the newest dropped message was refused (`heartbeat: voltage: ...`), and when; null when none was. */
  lastInvalidReason: z.string().nullable().optional(),
  lastInvalidAt: IsoDate.nullable().optional(),
  /** The caller's effective role on the hardware's site. */
  role: UpperRoleSchema,
  createdAt: IsoDate,
  updatedAt: IsoDate,
});
export type Hardware = z.infer<typeof HardwareSchema>;

export const HardwareListSchema = z.object({ hardware: z.array(HardwareSchema) });
export const HardwareListQuery = z
  .object({
    siteId: Id.optional(),
    siteIds: z
      .union([Id, z.array(Id), z.string()])
      .transform((v) => (Array.isArray(v) ? v : v.split(',').filter(Boolean)))
      .pipe(z.array(Id))
      .optional(),
    exhibitId: Id.optional(),
  })
  .refine((q) => q.siteId || q.siteIds || q.exhibitId, { message: 'one of siteId, siteIds, exhibitId is required' });
export const CreateHardwareBody = z.object({ name: Name, siteId: Id });
export const UpdateHardwareBody = z
  .object({ name: Name.optional(), exhibitId: Id.nullable().optional(), controlDebug: z.boolean().optional() })
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: 'one of name, exhibitId, controlDebug is required',
  });
