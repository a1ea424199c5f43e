import { FileInput, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  firmwareExtension,
  firmwareKindOfFile,
  firmwareTypeMessage,
  FIRMWARE_VERSION_MESSAGE,
  isValidFirmwareVersion,
  MAX_NAME_LENGTH,
  stripQuotesAndSlashes,
} from '@plinth/shared';
import { FormDialog, type DialogProps } from '../../../components/dialogs/FormDialog';
import type { MutationState } from '../../../lib/mutation-state';
import type { FirmwareUpload } from '../api/create-firmware';

type FirmwareUploadValues = { name: string; version: string; file: File | null };

export type FirmwareUploadDialogProps = DialogProps & {
  isPlinthFirmware: boolean;
  /** Stores the file and creates its record; the dialog closes when it resolves. */
  onUpload: (upload: FirmwareUpload) => Promise<unknown>;
  /** The upload's state: busy while pending, its error shown in the dialog. */
  mutation: MutationState;
};

/**
 * The spec's checks of a firmware upload (section 5), the server's own (`CreateFirmwareBody`):
 * the file's extension, then the version's form. Null when it may be sent. An empty version has
 * no message; Upload stays disabled until name, version and file are given.
 */
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
export function FirmwareUploadDialog({ opened, onClose, isPlinthFirmware, onUpload, mutation }: FirmwareUploadDialogProps) {
  const form = useForm<FirmwareUploadValues>({
    initialValues: { name: '', version: '', file: null },
    validate: {
      name: (value) => (value.trim() ? null : 'Name is required'),
      version: (value) => (value.trim() ? null : 'Version is required'),
      file: (value, values) => (value ? firmwareUploadError(isPlinthFirmware, values) : 'File is required'),
    },
  });
  const { name, version, file } = form.values;
  const validation = firmwareUploadError(isPlinthFirmware, { version, file });
  const extension = firmwareExtension(isPlinthFirmware);

  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title={`Upload ${isPlinthFirmware ? 'Plinth' : 'User'} Firmware`}
      onSubmit={() => onUpload({ name: name.trim(), version: version.trim(), file: file! })}
      mutation={mutation}
      confirmLabel="Upload"
      isConfirmDisabled={!form.isValid()}
      errorFallback="Could not upload the firmware."
      formError={validation}
      onOpen={form.reset}
    >
      <TextInput
        label="Name"
        value={name}
        maxLength={MAX_NAME_LENGTH}
        onChange={(e) => form.setFieldValue('name', stripQuotesAndSlashes(e.currentTarget.value))}
        data-autofocus
      />
      <TextInput label="Version" placeholder="Major.Minor" maxLength={32} {...form.getInputProps('version', { withError: false })} />
      <FileInput
        label="File"
        placeholder={`Choose a .${extension} file`}
        accept={`.${extension}`}
        clearable
        {...form.getInputProps('file', { withError: false })}
      />
    </FormDialog>
  );
}
