import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Hardware } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /hardware-mgmt/hardware/{id}: the record with its peripherals, firmware versions and the caller's role. */
export const getHardware = (id: string) => api.get<Hardware>(`/hardware-mgmt/hardware/${id}`);

export const getHardwareQueryOptions = (id: string) => queryOptions({ queryKey: queryKeys.hardware(id), queryFn: () => getHardware(id) });

/** The hardware record without its peripherals: what the screen around the tabs shows. */
export type HardwareFrame = Omit<Hardware, 'peripherals'>;

function withoutPeripherals({ peripherals: _peripherals, ...frame }: Hardware): HardwareFrame {
  return frame;
}

function peripheralsOf(hardware: Hardware): Hardware['peripherals'] {
  return hardware.peripherals;
}

/** The hardware screen's record; live status, prop and debug events patch it in place. */
export function useHardware(id: string | undefined) {
  return useQuery({ ...getHardwareQueryOptions(id ?? ''), enabled: Boolean(id) });
}

/**
 * The record without its peripherals, read and kept live like useHardware. A prop value changing
 * 1,000 times a second changes only the peripherals, so a screen reading this is not drawn again
 * for each change (the selected object stays the same while its fields are equal: issue 17).
 */
export function useHardwareFrame(id: string | undefined) {
  return useQuery({ ...getHardwareQueryOptions(id ?? ''), enabled: Boolean(id), select: withoutPeripherals });
}

/**
 * The peripherals and their live values, from the record the hardware screen loads (useHardware
 * or useHardwareFrame): this reads the cache and follows its changes, it does not fetch.
 */
export function useHardwarePeripherals(id: string): Hardware['peripherals'] | undefined {
  return useQuery({ ...getHardwareQueryOptions(id), enabled: false, select: peripheralsOf }).data;
}
