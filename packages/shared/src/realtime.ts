import { z } from 'zod';

/** Messages a console (or SDK) sends on the /ws socket. */
export const ClientMessageSchema = z.discriminatedUnion('type', [
  /** Authenticate with a session or exhibit token when the upgrade carried no cookie. */
  z.object({ type: z.literal('auth'), token: z.string().min(1) }),
  z.object({
    type: z.literal('subscribe'),
    exhibitIds: z.array(z.string()).max(5000).optional(),
    hardwareIds: z.array(z.string()).max(5000).optional(),
  }),
  /** Without either list: unsubscribe from everything; else from the ids given. */
  z.object({
    type: z.literal('unsubscribe'),
    exhibitIds: z.array(z.string()).max(5000).optional(),
    hardwareIds: z.array(z.string()).max(5000).optional(),
  }),
  z.object({ type: z.literal('ping') }),
]);
export type ClientMessage = z.infer<typeof ClientMessageSchema>;

/** Device and record events pushed to subscribed sockets, named resource.verb. */
export type RealtimeEvent =
  | { type: 'exhibit.online'; exhibitId: string; online: boolean; lastOnlineChange: string | null }
  | { type: 'exhibit.opMode'; id: string; mode: 'On' | 'Off' }
  | { type: 'exhibit.manifest'; exhibitId: string }
  | { type: 'exhibit.status'; exhibitId: string; id: string; value: unknown }
  | { type: 'exhibit.setting'; exhibitId: string; settingId: string; settingValue: unknown; applied: boolean }
  | { type: 'exhibit.log'; exhibitId: string; log: unknown }
  | { type: 'exhibit.updated'; exhibitId: string }
  | { type: 'exhibit.deleted'; exhibitId: string }
  | { type: 'hardware.online'; hardwareId: string; online: boolean }
  | { type: 'hardware.debug'; id: string; controlDebug: boolean }
  | { type: 'hardware.log'; hardwareId: string; log: unknown }
  | {
      type: 'hardware.status';
      hardwareId: string;
      voltage: number | null;
      temp: number | null;
      exhibitState: string | null;
      uptime: number | null;
      exhibitIP: string | null;
      updatedAt: string;
    }
  | { type: 'hardware.prop'; hardwareId: string; propType: string; propName: string; propValue: unknown; periphName: string }
  | { type: 'hardware.updated'; hardwareId: string }
  | { type: 'hardware.deleted'; hardwareId: string }
  | { type: 'file.uploaded'; exhibitId: string; fileName: string };

/** Close codes of the console's /ws socket. */
export const CONSOLE_CLOSE = {
  /** The session ended (logout, password change, signed out by an admin, expired): sign in again. */
  sessionEnded: 4401,
} as const;

/** Messages the server sends on the /ws socket. */
export type ServerMessage =
  | { type: 'handshake'; authenticated: boolean; userId?: string }
  /**
   * The user's grants changed (a grant removed or its role changed): the ids listed are no longer
   * delivered, and what the console shows about rights should be read again.
   */
  | { type: 'access.changed'; exhibitIds: string[]; hardwareIds: string[] }
  | { type: 'subscribed'; exhibitIds: string[]; hardwareIds: string[]; refused: string[] }
  | { type: 'unsubscribed'; exhibitIds: string[]; hardwareIds: string[] }
  | { type: 'error'; message: string }
  | { type: 'pong' }
  | RealtimeEvent;

/** The hub topic that carries events of one exhibit or one hardware unit. */
export function topicFor(kind: 'exhibit' | 'hardware', id: string): string {
  return `${kind}:${id}`;
}
