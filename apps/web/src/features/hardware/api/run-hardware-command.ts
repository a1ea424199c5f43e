import { useMutation } from '@tanstack/react-query';
import type { CommandResult, HardwareCommand } from '@plinth/shared';
import { api } from '../../../lib/api-client';

export type RunHardwareCommandInput = { hardwareId: string; command: HardwareCommand };

/** GET /hardware-mgmt/hardware/{id}/{command}: reboot, identify or get (re-announce every value); answers once the board has carried it out. */
export const runHardwareCommand = ({ hardwareId, command }: RunHardwareCommandInput) =>
  api.get<CommandResult>(`/hardware-mgmt/hardware/${hardwareId}/${command}`);

/** A board command; the board reports its new state through live events, so nothing cached changes here. */
export function useRunHardwareCommand() {
  return useMutation({ mutationFn: runHardwareCommand });
}
