import { Center, Loader, SimpleGrid, Text } from '@mantine/core';
import type { Firmware } from '@plinth/shared';
import { useFirmware } from '../api/list-firmware';
import { FirmwarePanel } from './FirmwarePanel';
import type { HardwareFrame } from '../api/get-hardware';

/**
 * The firmware tab (spec 2.13): a panel for Plinth firmware (.gbm0) and one for user firmware
 * (.gbm4). Upload stores the file then creates its record; Update pushes it to the board; Delete
 * removes the record, then the file.
 */
export function HardwareFirmwareTab({ hardware, canOperate }: { hardware: HardwareFrame; canOperate: boolean }) {
  const firmware = useFirmware(hardware.id);

  if (firmware.isPending) {
    return (
      <Center p="md">
        <Loader aria-label="Loading firmware" />
      </Center>
    );
  }
  if (firmware.isError) {
    return <Text c="red">Could not load the firmware of this hardware.</Text>;
  }

  const data = firmware.data;
  const isFileShared = (item: Firmware) => [...data.plinthFirmware, ...data.userFirmware].some((f) => f.id !== item.id && f.fileName === item.fileName);
  const panels = [
    { isPlinthFirmware: true, available: data.plinthFirmware, history: data.plinthFirmwareHistory, currentVersion: hardware.plinth_fw ?? data.currentPlinthVersion },
    { isPlinthFirmware: false, available: data.userFirmware, history: data.userFirmwareHistory, currentVersion: hardware.user_fw ?? data.currentUserVersion },
  ];
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }}>
      {panels.map((panel) => (
        <FirmwarePanel
          key={String(panel.isPlinthFirmware)}
          hardware={hardware}
          {...panel}
          online={hardware.online}
          canOperate={canOperate}
          isFileShared={isFileShared}
        />
      ))}
    </SimpleGrid>
  );
}
