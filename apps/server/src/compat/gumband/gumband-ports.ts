/**
 * Each Gumband service's port as an offset from GUMBAND_COMPAT_BASE_PORT: the SDK's fixed
 * 3000 (auth), 3002 (ws), 3003 (reporting), 3004 (hardware), 3006 (exhibit), 3007 (logging),
 * 3008 (content) and 3010 (notifications) with the default base 3000.
 */
export const GUMBAND_PORT_OFFSETS = { auth: 0, ws: 2, reporting: 3, hardware: 4, exhibit: 6, logging: 7, content: 8, notifications: 10 } as const;
export type GumbandService = keyof typeof GUMBAND_PORT_OFFSETS;
