import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat; null when it is gone. */
export function cpuSeconds(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return (utime + stime) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** Resident set size of a process in bytes, from /proc/<pid>/status; null when it is gone. */
export function rssBytes(pid: number): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Soft and hard limits on open files of this process, from /proc/self/limits. */
export function openFileLimits(): { soft: number; hard: number } | null {
  try {
    const limits = fs.readFileSync('/proc/self/limits', 'utf8');
    const match = /^Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)/m.exec(limits);
    if (!match) return null;
    const parse = (v: string) => (v === 'unlimited' ? Number.POSITIVE_INFINITY : Number(v));
    return { soft: parse(match[1]!), hard: parse(match[2]!) };
  } catch {
    return null;
  }
}

/** Measures CPU use of a set of processes over a window: call `stop()` at its end. */
export function startCpuWindow(pids: () => number[]): { stop: () => { seconds: number; cpuSeconds: number; percentOfOneCore: number } } {
  const startedAt = performance.now();
  const before = new Map(pids().map((pid) => [pid, cpuSeconds(pid) ?? 0]));
  return {
    stop() {
      const seconds = (performance.now() - startedAt) / 1000;
      let used = 0;
      for (const pid of new Set([...before.keys(), ...pids()])) {
        const now = cpuSeconds(pid);
        // A process that ended in the window loses its last ticks; one that started counts whole.
        if (now !== null) used += now - (before.get(pid) ?? 0);
      }
      return { seconds, cpuSeconds: used, percentOfOneCore: (used / seconds) * 100 };
    },
  };
}

/**
 * Seconds a process's main thread has spent runnable but waiting for a CPU, from
 * /proc/<pid>/schedstat (needs schedstats in the kernel); null when unavailable. On a busy
 * machine this is where latency goes that the process itself did not cause.
 */
export function runQueueWaitSeconds(pid: number): number | null {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(/\s+/);
    const waitNs = Number(fields[1]);
    return Number.isFinite(waitNs) ? waitNs / 1e9 : null;
  } catch {
    return null;
  }
}

/**
 * Samples a process's resident set every `everyMs` (100 ms by default) until `stop()`, which
 * answers the first reading and the highest one seen (bytes).
 */
export function startRssSampler(pid: number, everyMs = 100): { peak: () => number; stop: () => { first: number; peak: number } } {
  const first = rssBytes(pid) ?? 0;
  let peak = first;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssBytes(pid) ?? 0);
  }, everyMs);
  return {
    peak: () => peak,
    stop() {
      clearInterval(timer);
      peak = Math.max(peak, rssBytes(pid) ?? 0);
      return { first, peak };
    },
  };
}
