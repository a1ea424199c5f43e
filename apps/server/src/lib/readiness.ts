import type { Readiness as ReadinessBody, ReadinessPart } from '@plinth/shared';

/** How long a dependency may take to answer a readiness check before it counts as failing (ms). */
export const READINESS_CHECK_TIMEOUT_MS = 2000;

/** Answers whether a dependency answers now; a rejection or a false answer is a failure. */
export type ReadinessCheck = () => boolean | Promise<boolean | void>;

/**
 * Whether this node should receive traffic (`GET /readyz`): not while it starts, not from the
 * first moment of a graceful stop, and only while the database, the broker and Redis (when
 * configured) answer. A check still running is shared by the requests that arrive meanwhile,
 * so a load balancer polling a node whose database hangs does not pile queries up.
 */
export class Readiness {
  private state: 'starting' | 'running' | 'stopping' = 'starting';
  private readonly checks = new Map<ReadinessPart, ReadinessCheck>();
  private readonly running = new Map<ReadinessPart, Promise<boolean>>();

  constructor(private readonly timeoutMs = READINESS_CHECK_TIMEOUT_MS) {}

  /** Adds the check of one part (the database, the broker, Redis). */
  check(part: ReadinessPart, check: ReadinessCheck): void {
    this.checks.set(part, check);
  }

  /** Start-up is over: the checks decide from now on. */
  started(): void {
    if (this.state === 'starting') this.state = 'running';
  }

  /** A graceful stop began: not ready from now on, whatever the checks say. */
  stopping(): void {
    this.state = 'stopping';
  }

  get isStopping(): boolean {
    return this.state === 'stopping';
  }

  /** The answer of `/readyz`: ready only when running and every part answers. */
  async report(): Promise<ReadinessBody> {
    if (this.state !== 'running') return { status: this.state, failing: [], checks: {} };
    const parts = [...this.checks.keys()];
    const results = await Promise.all(parts.map((part) => this.run(part)));
    const checks = Object.fromEntries(parts.map((part, i) => [part, results[i] ? 'ok' : 'failing'])) as ReadinessBody['checks'];
    const failing = parts.filter((_, i) => !results[i]);
    // A stop that began while the checks ran wins.
    const status = this.isStopping ? 'stopping' : failing.length ? 'unavailable' : 'ready';
    return { status, failing, checks };
  }

  private run(part: ReadinessPart): Promise<boolean> {
    const pending = this.running.get(part);
    if (pending) return pending;
    const check = this.checks.get(part)!;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), this.timeoutMs);
      timer.unref();
    });
    const answer = Promise.resolve()
      .then(check)
      .then((result) => result !== false)
      .catch(() => false);
    const result = Promise.race([answer, timeout]).finally(() => {
      clearTimeout(timer);
      this.running.delete(part);
    });
    this.running.set(part, result);
    return result;
  }
}
