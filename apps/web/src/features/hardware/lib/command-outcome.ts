import { COMMAND_TIMEOUT_MS, type CommandResult } from '@plinth/shared';

/** What the console tells of a board command once the server has its outcome. */
export type CommandOutcome = { ok: boolean; text: string };

/**
 * The outcome of a board command as a sentence: done, not answered within the server's wait
 * (`COMMAND_TIMEOUT_MS`; the server reports it as the error `timeout`), or refused with the
 * board's reason. `label` is the command's button text, `boardName` the hardware's name.
 */
export function commandOutcome(label: string, boardName: string, result: CommandResult): CommandOutcome {
  if (result.ok) return { ok: true, text: `${boardName} answered: ${label} done.` };
  if (result.error === 'timeout') {
    return { ok: false, text: `${boardName} did not answer ${label} within ${Math.round(COMMAND_TIMEOUT_MS / 1000)} seconds.` };
  }
  return { ok: false, text: `${label} failed on ${boardName}: ${result.error ?? 'no reason given'}.` };
}
