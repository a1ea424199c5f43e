/** The clock behind a seam, so tests can move time (link expiry, greetings, heartbeats). */
export type Clock = { now: () => Date };
export const systemClock: Clock = { now: () => new Date() };
