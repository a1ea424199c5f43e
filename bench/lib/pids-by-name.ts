import fs from 'node:fs';

/**
 * The processes whose command name (/proc/<pid>/comm) is `name`, e.g. `redis-server`: a service
 * the benchmark did not start but whose CPU it reports (for a shared service, other users' work
 * is in that figure too).
 */
export function pidsByName(name: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) pids.push(Number(entry));
    } catch {
      // ended meanwhile
    }
  }
  return pids;
}
