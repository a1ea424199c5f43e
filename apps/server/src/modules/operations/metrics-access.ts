import { createHash, timingSafeEqual } from 'node:crypto';

/** Whether an Authorization header is `Bearer <METRICS_TOKEN>` (compared in constant time). */
export function isMetricsToken(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!match) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(match[1]!.trim()), digest(token));
}
