import type { Logger } from 'pino';

/**
 * Work that runs after the answer has gone out, so that how long it takes tells the caller
 * nothing (a reset mail is only sent for an email with an account). Failures are logged; stopping
 * the server waits for what is under way.
 */
export type BackgroundTasks = {
  /** Starts `work` now without waiting for it; `what` names it in the log when it fails. */
  run: (what: string, work: () => Promise<unknown>) => void;
  /** Resolves when every task started so far has ended. */
  drain: () => Promise<void>;
};

export function createBackgroundTasks(logger: Logger): BackgroundTasks {
  const running = new Set<Promise<unknown>>();
  return {
    run(what, work) {
      const task = work()
        .catch((error: unknown) => logger.error({ err: error }, `${what} failed`))
        .finally(() => running.delete(task));
      running.add(task);
    },
    async drain() {
      while (running.size) await Promise.allSettled([...running]);
    },
  };
}
