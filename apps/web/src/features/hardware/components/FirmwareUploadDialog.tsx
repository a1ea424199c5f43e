import { Button, FileInput, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import {
  firmwareExtension,
  firmwareKindOfFile,
  firmwareTypeMessage,
  FIRMWARE_VERSION_MESSAGE,
  isValidFirmwareVersion,
  stripQuotesAndSlashes,
} from '@plinth/shared';
import { DialogError } from '../../../components/dialogs/DialogError';
import { useClickGuard } from '../../../components/useClickGuard';

export type FirmwareUpload = { name: string; version: string; file: File };

export type FirmwareUploadDialogProps = {
  opened: boolean;
  onClose: () => void;
  isPlinthFirmware: boolean;
  onUpload: (upload: FirmwareUpload) => Promise<void>;
};

/** The spec's checks of a firmware upload (section 5); null when it may be sent. */
export function firmwareUploadError(isPlinthFirmware: boolean, upload: { version: string; file: File | null }): string | null {
  if (upload.file && firmwareKindOfFile(upload.file.name) !== (isPlinthFirmware ? 'plinth' : 'user')) return firmwareTypeMessage(isPlinthFirmware);
  if (upload.version.trim() !== '' && !isValidFirmwareVersion(upload.version)) return FIRMWARE_VERSION_MESSAGE;
  return null;
}

/**
 * Upload of a firmware file with its name and version: Upload stays disabled until all three are
 * given; the name loses double quotes and slashes as it is typed; a wrong extension or version
 * shows the spec's message.
 */
export function FirmwareUploadDialog({ opened, onClose, isPlinthFirmware, onUpload }: FirmwareUploadDialogProps) {
  const [name, setName] = useState('');
  const [version, setVersion] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (opened) {
      setName('');
      setVersion('');
      setFile(null);
      setError(null);
      setBusy(false);
    }
  }, [opened]);

  const validation = firmwareUploadError(isPlinthFirmware, { version, file });
  const complete = name.trim() !== '' && version.trim() !== '' && file !== null;
  const submit = useClickGuard(() => {
    if (!complete || validation || !file) return;
    setBusy(true);
    setError(null);
    onUpload({ name: name.trim(), version: version.trim(), file })
      .then(() => onClose())
      .catch((e: unknown) => setError(e instanceof Error && e.message ? e.message : 'Could not upload the firmware.'))
      .finally(() => setBusy(false));
  });
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };
  const extension = firmwareExtension(isPlinthFirmware);

  return (
    <Modal opened={opened} onClose={onClose} title={`Upload ${isPlinthFirmware ? 'Plinth' : 'User'} Firmware`} centered>
      <form onSubmit={handleSubmit}>
        <Stack>
          <TextInput label="Name" value={name} maxLength={200} onChange={(e) => setName(stripQuotesAndSlashes(e.currentTarget.value))} data-autofocus />
          <TextInput label="Version" placeholder="Major.Minor" value={version} maxLength={32} onChange={(e) => setVersion(e.currentTarget.value)} />
          <FileInput label="File" placeholder={`Choose a .${extension} file`} accept={`.${extension}`} value={file} onChange={setFile} clearable />
          <DialogError message={validation ?? error} />
          <Group justify="flex-end">
            <Button variant="default" type="button" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!complete || validation !== null || busy} loading={busy}>
              Upload
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
