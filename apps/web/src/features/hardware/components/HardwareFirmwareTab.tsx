import { Center, Loader, SimpleGrid, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { Firmware, Hardware } from '@plinth/shared';
import { createFirmware, deleteFirmware, deleteFirmwareFile, pushFirmware, uploadFirmwareFile, useFirmware } from '../../../api/hardware-runtime';
import { queryKeys } from '../../../api/query-keys';
import { FirmwarePanel } from './FirmwarePanel';
import type { FirmwareUpload } from './FirmwareUploadDialog';

/**
 * The firmware tab (spec 2.13): a panel for Plinth firmware (.gbm0) and one for user firmware
 * (.gbm4). Upload stores the file then creates its record; Update pushes it to the board; Delete
 * removes the record, then the file.
 */
export function HardwareFirmwareTab({ hardware, canOperate }: { hardware: Hardware; canOperate: boolean }) {
  const queryClient = useQueryClient();
  const firmware = useFirmware(hardware.id);
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.hardwareFirmware(hardware.id) });

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

  const upload = (isPlinthFirmware: boolean) => async ({ name, version, file }: FirmwareUpload) => {
    const stored = await uploadFirmwareFile(hardware.id, hardware.siteId, file);
    await createFirmware({ hardwareId: hardware.id, isPlinthFirmware, fileName: stored.fileName, name, fileSize: stored.fileSize, version });
    await refresh();
  };
  const update = async (item: Firmware) => {
    await pushFirmware(item.id);
    await refresh();
  };
  const remove = async (item: Firmware) => {
    await deleteFirmware(item.id);
    const sharedFile = [...firmware.data.plinthFirmware, ...firmware.data.userFirmware].some((f) => f.id !== item.id && f.fileName === item.fileName);
    if (!sharedFile) {
      try {
        await deleteFirmwareFile(hardware.id, hardware.siteId, item.fileName);
      } catch (e) {
        console.error('Could not delete the firmware file', e);
      }
    }
    await refresh();
  };

  const data = firmware.data;
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }}>
      <FirmwarePanel
        isPlinthFirmware
        available={data.plinthFirmware}
        history={data.plinthFirmwareHistory}
        currentVersion={hardware.plinth_fw ?? data.currentPlinthVersion}
        online={hardware.online}
        canOperate={canOperate}
        onUpload={upload(true)}
        onUpdate={update}
        onDelete={remove}
      />
      <FirmwarePanel
        isPlinthFirmware={false}
        available={data.userFirmware}
        history={data.userFirmwareHistory}
        currentVersion={hardware.user_fw ?? data.currentUserVersion}
        online={hardware.online}
        canOperate={canOperate}
        onUpload={upload(false)}
        onUpdate={update}
        onDelete={remove}
      />
    </SimpleGrid>
  );
}
