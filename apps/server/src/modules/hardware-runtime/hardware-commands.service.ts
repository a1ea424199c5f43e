import { checkPropValue, type CommandResult, type HardwareCommand } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import type { OutgoingCommand } from '../../devices/ports.js';
import { AppError } from '../../lib/app-error.js';
import { getRuntimeRow } from './hardware-state.repository.js';

/** The error for a command the board did not carry out. */
function failure(result: CommandResult): AppError {
  if (result.error === 'timeout') return new AppError('ServiceUnavailable', 'The hardware did not answer in time.');
  return new AppError('Conflict', `The hardware refused the command: ${result.error ?? 'no reason given'}`);
}

async function sendOrFail(deps: AppDeps, hardwareId: string, command: OutgoingCommand): Promise<CommandResult> {
  const result = await deps.hardwareGateway.sendCommand(hardwareId, command);
  if (!result.ok) throw failure(result);
  return result;
}

/** reboot, identify or get (re-announce every value); refused while the board is offline. */
export async function runHardwareCommand(deps: AppDeps, hardwareId: string, command: HardwareCommand): Promise<CommandResult> {
  const row = await getRuntimeRow(deps.db, hardwareId);
  if (!row) throw new AppError('NotFound');
  if (!row.online) throw new AppError('HardwareOffline');
  return sendOrFail(deps, hardwareId, { command });
}

/** A prop to set on a board: which peripheral's, which prop, the value asked for (not yet checked). */
export type PropSet = { peripheralId: string; propName: string; value: unknown };

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
  return sendOrFail(deps, hardwareId, { command: 'set', peripheralId, propName, value: checked.value });
}
