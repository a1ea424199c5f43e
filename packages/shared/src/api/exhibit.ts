import { z } from 'zod';
import { Id, IsoDate, Name, SitePlacedSchema, UpperRoleSchema } from './common.js';
import { OpModeSchema } from '../values.js';
import { isValidMqttPath, MQTT_PATH_MESSAGE } from '../mqtt-path.js';


export const MqttPath = z
  .string()
  .trim()
  .refine(isValidMqttPath, { message: MQTT_PATH_MESSAGE });

export const FollowerSchema = z.object({ id: Id, name: z.string(), online: z.boolean(), opMode: OpModeSchema });

export const ExhibitSchema = SitePlacedSchema.extend({
  mqttPath: z.string(),
  leaderId: Id.nullable(),
  leader: z.object({ id: Id, name: z.string() }).nullable(),
  manifestLocked: z.boolean(),
  online: z.boolean(),
  /** Reads Off while the exhibit is offline. */
  opMode: OpModeSchema,
  /** opMode === 'On', for the list views. */
  op_mode: z.boolean(),
  lastOnlineChange: IsoDate.nullable(),
  followers: z.array(FollowerSchema),
  /** The caller's effective role on the exhibit. */
  role: UpperRoleSchema,
  createdAt: IsoDate,
  updatedAt: IsoDate,
});
export type Exhibit = z.infer<typeof ExhibitSchema>;

export const ExhibitListSchema = z.object({ exhibits: z.array(ExhibitSchema) });
export const BySiteIdsQuery = z.object({
  siteId: z.union([Id, z.array(Id)]).transform((v) => (Array.isArray(v) ? v : [v])),
});
export const CreateExhibitBody = z.object({ name: Name, siteId: Id, mqttPath: MqttPath.optional() });
/** One of the fields per call, as the console sends them; several at once are accepted too. */
export const UpdateExhibitBody = z
  .object({
    name: Name.optional(),
    mqttPath: MqttPath.optional(),
    leaderId: Id.nullable().optional(),
    manifestLocked: z.boolean().optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: 'one of name, mqttPath, leaderId, manifestLocked is required',
  });

export type LockedExhibitsDetails = { lockedExhibits: { id: string; name: string }[] };
