import { z } from 'zod';

/** GET /healthz: the process is alive (no dependency is checked). */
export const HealthSchema = z.object({ status: z.literal('ok') });
export type Health = z.infer<typeof HealthSchema>;

/** What a node needs to serve traffic: its database, its MQTT broker, Redis when configured. */
export const READINESS_PARTS = ['database', 'broker', 'redis'] as const;
export const ReadinessPartSchema = z.enum(READINESS_PARTS);
export type ReadinessPart = z.infer<typeof ReadinessPartSchema>;

/**
 * GET /readyz (200 when `ready`, else 503): `starting` and `stopping` while the node starts or
 * has begun a graceful stop (no check is run then), `unavailable` when a part in `failing` does
 * not answer. Names parts only: no version, address or secret.
 */
export const ReadinessSchema = z.object({
  status: z.enum(['ready', 'starting', 'stopping', 'unavailable']),
  /** The parts that did not answer (empty unless `unavailable`). */
  failing: z.array(ReadinessPartSchema),
  /** Each part checked, and how it answered. */
  checks: z.partialRecord(ReadinessPartSchema, z.enum(['ok', 'failing'])),
});
export type Readiness = z.infer<typeof ReadinessSchema>;
