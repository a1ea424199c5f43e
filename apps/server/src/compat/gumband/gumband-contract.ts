import { z } from 'zod';

/**
 * What the Gumband SDK sends (`@deeplocal/gumband-node-sdk` 1.0.39, lib/*.js), checked before
 * anything is done with it. Gumband's own shapes, so they live here and not in packages/shared.
 */

const Text = (max: number) => z.string().max(max);
/** An exhibit id as the SDK sends it (Plinth's ids are uuids; anything else is simply not found). */
const ExhibitIdText = Text(100);
/** A value the exhibit sends: Gumband takes anything JSON can carry. */
const AnyValue = z.union([z.string().max(100_000), z.number(), z.boolean(), z.null()]);

export const AuthenticateBody = z.object({ exhibitId: z.union([ExhibitIdText, z.number()]).transform(String), token: Text(500) });
export const ExhibitParams = z.object({ id: ExhibitIdText });
export const ItemParams = z.object({ id: ExhibitIdText, itemId: Text(300) });
export const ExhibitQuery = z.object({ exhibitId: ExhibitIdText });
export const FileQuery = z.object({ exhibitId: ExhibitIdText, fileName: Text(1000) });
export const LockBody = z.object({ manifestLocked: z.boolean() });
export const StatusBody = z.object({ value: z.union([AnyValue, z.record(z.string(), z.unknown())]).optional() });
export const SettingBody = z.object({ value: AnyValue, realtime: z.boolean().optional() });
export const OpModeBody = z.object({ opMode: z.enum(['On', 'Off']) });
export const LogBody = z.object({
  exhibitId: z.union([ExhibitIdText, z.number()]).transform(String),
  type: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  message: Text(10_000),
});
export const EventBody = z.object({
  exhibitId: z.union([ExhibitIdText, z.number()]).transform(String),
  name: Text(200).min(1),
  data: z.unknown().optional(),
});
export const EmailBody = z.object({
  exhibitId: z.union([ExhibitIdText, z.number()]).transform(String),
  type: Text(50).optional(),
  message: Text(10_000),
});

/** A frame the SDK writes on its socket (lib/ws.js): HANDSHAKE {jwt}, then SUBSCRIBE {exhibitId}. */
export const SocketFrame = z.discriminatedUnion('action', [
  z.object({ action: z.literal('HANDSHAKE'), data: z.object({ jwt: Text(500) }) }),
  z.object({ action: z.literal('SUBSCRIBE'), data: z.object({ exhibitId: z.union([ExhibitIdText, z.number()]).transform(String) }) }),
]);
