import { checkPropValue, type CommandResult, type HardwareCommand } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import type { OutgoingCommand } from '../../devices/ports.js';
import { AppError } from '../../lib/app-error.js';
import { recordHardware } from '../logging/records.js';
import { getRuntimeRow } from './hardware-state.repository.js';

/** The error for a command the board did not carry out. */
function failure(result: CommandResult): AppError {
  if (result.error === 'timeout') return new AppError('ServiceUnavailable', 'The hardware did not answer in time.');
  return new AppError('Conflict', `The hardware refused the command: ${result.error ?? 'no reason given'}`);
}

/** Sends a command and logs its outcome under `what` (reboot has its own event type, the hardware report counts it). */
async function sendOrFail(deps: AppDeps, hardwareId: string, send: { command: OutgoingCommand; what: string }): Promise<CommandResult> {
  const result = await deps.hardwareGateway.sendCommand(hardwareId, send.command);
  const eventType = send.command.command === 'reboot' ? 'reboot' : 'command';
  const outcome = result.ok ? 'ok' : `failed (${result.error ?? 'no reason given'})`;
  recordHardware(deps.logs, hardwareId, { eventType, level: result.ok ? 'info' : 'warn', message: `${send.what}: ${outcome}` });
  if (!result.ok) throw failure(result);
  return result;
}

/** reboot, identify or get (re-announce every value), sent by `by` (an email); refused while the board is offline. */
export async function runHardwareCommand(deps: AppDeps, hardwareId: string, run: { command: HardwareCommand; by: string }): Promise<CommandResult> {
  const row = await getRuntimeRow(deps.db, hardwareId);
  if (!row) throw new AppError('NotFound');
  if (!row.online) throw new AppError('HardwareOffline');
  return sendOrFail(deps, hardwareId, { command: { command: run.command }, what: `Command ${run.command} sent by ${run.by}` });
}

/** A prop to set on a board: which peripheral's, which prop, the value asked for (not yet checked), and who asks (an email). */
export type PropSet = { peripheralId: string; propName: string; value: unknown; by: string };

/**
 * Sets a prop on the board. Refused unless debug mode is on and the board online; the value is
 * checked against the prop's type, min and max. The board echoes the new value as a prop message.
 */
export async function setHardwareProp(deps: AppDeps, hardwareId: string, prop: PropSet): Promise<CommandResult> {
  const { peripheralId, propName, value } = prop;
  const row = await getRuntimeRow(deps.db, hardwareId);
  if (!row) throw new AppError('NotFound');
  if (!row.online) throw new AppError('HardwareOffline');
  if (!row.controlDebug) throw new AppError('Conflict', 'Debug mode is off: turn it on to drive peripherals.');
  const known = row.peripherals.find((p) => p.id === peripheralId)?.props.find((p) => p.name === propName);
  if (!known) throw new AppError('NotFound', 'This peripheral or prop is not known for this hardware.');
  const checked = checkPropValue(known, value);
  if (!checked.ok) throw new AppError('ValidationError', checked.message);
  const what = `Prop ${peripheralId} ${propName} set to ${JSON.stringify(checked.value)} by ${prop.by}`;
  return sendOrFail(deps, hardwareId, { command: { command: 'set', peripheralId, propName, value: checked.value }, what });
}
