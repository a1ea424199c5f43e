import { z } from 'zod';
import { ORG_FILE_PREFIX } from '../constants.js';
import { HARDWARE_COMMANDS } from '../mqtt-protocol.js';
import { stripQuotesAndSlashes } from '../text.js';
import { Id, IsoDate, Name } from './common.js';
import { TokenSchema } from './auth.js';

// ---- Hardware tokens (/auth/hardware) ----

export const CreateHardwareTokenBody = z.object({ name: Name, hardwareId: Id });
/** A new token: the value is shown once and never again. */
export const CreatedHardwareTokenSchema = TokenSchema.extend({ token: z.string() });
export const HardwareTokenListSchema = z.object({ tokens: z.array(TokenSchema) });

// ---- Commands and prop sets ----

export const HardwareCommandParams = z.object({ id: Id, command: z.enum(HARDWARE_COMMANDS) });
/** The outcome of a command the board answered. */
export const CommandResultSchema = z.object({
  correlationId: z.string(),
  ok: z.boolean(),
  error: z.string().optional(),
  data: z.unknown().optional(),
});
export type CommandResult = z.infer<typeof CommandResultSchema>;

const PeripheralId = z.string().min(1).max(64);
const PropName = z.string().min(1).max(64);
/** A value to set on a prop: text, a number, a boolean, or the channels of an LED. */
const PropSetValue = z.union([z.string().max(1024), z.number(), z.boolean(), z.array(z.number())]);

/**
 * PUT /hardware-mgmt/peripheral/{hardwareId}/{peripheralId}/{propName} with the spec's body
 * `{value}`. Peripheral ids are the board's own (every board may have a `relay1`), so the path
 * names the board.
 */
export const BoardPropParams = z.object({ hardwareId: Id, peripheralId: PeripheralId, propName: PropName });
/** `hardwareId` is what older clients still send; when given it must be the board of the path. */
export const SetPropBody = z.object({ value: PropSetValue, hardwareId: Id.optional() });

/** PUT /hardware-mgmt/peripheral/{peripheralId}/{propName}: the older form, naming the board in the body. */
export const PeripheralPropParams = z.object({ peripheralId: PeripheralId, propName: PropName });
export const UpdatePropBody = z.object({ hardwareId: Id, value: PropSetValue });

// ---- Firmware (spec document 2, sections 2.13, 3, 5, 7.2) ----

export const PLINTH_FIRMWARE_EXTENSION = 'gbm0';
export const USER_FIRMWARE_EXTENSION = 'gbm4';
export const FIRMWARE_VERSION_MESSAGE = 'Invalid version: The version needs to be in the format Major.Minor';

/** The spec's message for a file of the wrong kind. */
export function firmwareTypeMessage(isPlinthFirmware: boolean): string {
  return `Invalid file type: This file needs to be a .${isPlinthFirmware ? PLINTH_FIRMWARE_EXTENSION : USER_FIRMWARE_EXTENSION} file.`;
}

/** The extension a firmware file must end with. */
export function firmwareExtension(isPlinthFirmware: boolean): string {
  return isPlinthFirmware ? PLINTH_FIRMWARE_EXTENSION : USER_FIRMWARE_EXTENSION;
}

/** A version has at most one dot and parses as a number (Major.Minor). */
export function isValidFirmwareVersion(version: string): boolean {
  const text = version.trim();
  if (!text || (text.match(/\./g) ?? []).length > 1) return false;
  return /^\d+(\.\d+)?$/.test(text) && Number.isFinite(Number(text));
}

/** Which kind of firmware a file name is, by its extension; null when neither. */
export function firmwareKindOfFile(fileName: string): 'plinth' | 'user' | null {
  const lower = fileName.toLowerCase();
  if (lower.endsWith(`.${PLINTH_FIRMWARE_EXTENSION}`)) return 'plinth';
  if (lower.endsWith(`.${USER_FIRMWARE_EXTENSION}`)) return 'user';
  return null;
}

/**
 * A stored firmware file name: no folders, no path tricks, no `[ORG]` prefix, and one of the two
 * firmware extensions. Null when it is not acceptable.
 */
export function cleanFirmwareFileName(fileName: string): string | null {
  const name = fileName.trim();
  if (!name || name.length > 200 || /[/\\\0]/.test(name) || name.startsWith('.') || name.startsWith(ORG_FILE_PREFIX)) return null;
  return firmwareKindOfFile(name) ? name : null;
}

const FirmwareName = z
  .string({ message: 'is required' })
  .transform(stripQuotesAndSlashes)
  .pipe(Name);

export const CreateFirmwareBody = z
  .object({
    hardwareId: Id,
    isPlinthFirmware: z.boolean(),
    fileName: z.string({ message: 'is required' }).min(1, { message: 'must not be empty' }).max(200),
    name: FirmwareName,
    /** As the console read it; the server stores the size of the file it holds. */
    fileSize: z.union([z.string(), z.number()]).optional(),
    version: z.string({ message: 'is required' }).trim().refine(isValidFirmwareVersion, { message: FIRMWARE_VERSION_MESSAGE }),
  })
  .superRefine((body, ctx) => {
    if (firmwareKindOfFile(body.fileName) !== (body.isPlinthFirmware ? 'plinth' : 'user')) {
      ctx.addIssue({ code: 'custom', path: ['fileName'], message: firmwareTypeMessage(body.isPlinthFirmware) });
    }
  });

export const FirmwareSchema = z.object({
  id: Id,
  name: z.string(),
  version: z.string(),
  fileName: z.string(),
  /** Bytes, as a string (spec). */
  fileSize: z.string(),
  createdAt: IsoDate,
  hardwareId: Id,
  isPlinthFirmware: z.boolean(),
});
export type Firmware = z.infer<typeof FirmwareSchema>;

export const FirmwareHistoryEntrySchema = z.object({
  id: Id,
  FirmwareId: Id.nullable(),
  createdAt: IsoDate,
  /** The version pushed (kept when the firmware record is deleted later). */
  version: z.string(),
  name: z.string(),
  /** pending until the board reports the outcome. */
  status: z.enum(['pending', 'applied', 'failed']),
  error: z.string().nullable(),
});
export type FirmwareHistoryEntry = z.infer<typeof FirmwareHistoryEntrySchema>;

export const FirmwareListQuery = z.object({ hardwareId: Id });
export const FirmwareListSchema = z.object({
  userFirmware: z.array(FirmwareSchema),
  plinthFirmware: z.array(FirmwareSchema),
  userFirmwareHistory: z.array(FirmwareHistoryEntrySchema),
  plinthFirmwareHistory: z.array(FirmwareHistoryEntrySchema),
  /** The versions the board last announced. */
  currentPlinthVersion: z.string().nullable(),
  currentUserVersion: z.string().nullable(),
});
export type FirmwareList = z.infer<typeof FirmwareListSchema>;

/** The answer to POST /hardware-mgmt/firmware/{id}/upload: the board accepted the update. */
export const FirmwarePushSchema = z.object({ correlationId: z.string(), history: FirmwareHistoryEntrySchema });

/** POST /content/firmware/upload?hardwareId&siteId&firmwareName (multipart field `file`). */
export const FirmwareUploadQuery = z.object({
  hardwareId: Id,
  siteId: Id,
  firmwareName: z.string().min(1).max(200).optional(),
});
export const FirmwareUploadSchema = z.object({ fileName: z.string(), fileSize: z.string() });
/** DELETE /content/firmware?hardwareId&siteId&firmware. */
export const FirmwareFileDeleteQuery = z.object({ hardwareId: Id, siteId: Id, firmware: z.string().min(1).max(200) });
