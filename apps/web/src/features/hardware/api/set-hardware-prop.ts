import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CommandResult, Hardware, Prop } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** A value a prop set may carry: text, a number, or the comma-separated LED channels. */
export type PropSetValue = string | number | boolean | number[];

export type SetHardwarePropInput = { peripheralId: string; propName: string; value: PropSetValue };

/** PUT /hardware-mgmt/peripheral/{hardwareId}/{peripheralId}/{propName}: the board echoes the new value as a live prop message. */
export const setHardwareProp = (hardwareId: string, { peripheralId, propName, value }: SetHardwarePropInput) =>
  api.put<CommandResult>(
    `/hardware-mgmt/peripheral/${encodeURIComponent(hardwareId)}/${encodeURIComponent(peripheralId)}/${encodeURIComponent(propName)}`,
    { value },
  );

/** Sets one prop of one peripheral; once accepted, the value is written into the cached record until the board's echo arrives. */
export function useSetHardwareProp(hardwareId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SetHardwarePropInput) => setHardwareProp(hardwareId, input),
    onSuccess: (_result, { peripheralId, propName, value }) => {
      const stored = (Array.isArray(value) ? value.join(',') : value) as Prop['value'];
      queryClient.setQueryData<Hardware>(queryKeys.hardware(hardwareId), (data) =>
        data
          ? {
              ...data,
              peripherals: data.peripherals.map((p) =>
                p.id === peripheralId ? { ...p, props: p.props.map((q) => (q.name === propName ? { ...q, value: stored } : q)) } : p,
              ),
            }
          : data,
      );
    },
  });
}
