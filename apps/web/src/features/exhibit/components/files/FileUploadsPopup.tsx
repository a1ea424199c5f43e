import { ActionIcon, Group, Paper, Progress, ScrollArea, Stack, Text, Tooltip } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconX } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { ConfirmDialog } from '../../../../components/dialogs/ConfirmDialog';
import { isUploadRunning, type FileUpload } from '../../api/upload-files';

export const STOP_UPLOADS_MESSAGE = 'Some files have not finished uploading. Closing stops them and reloads the page. Close anyway?';

export type FileUploadsPopupProps = {
  uploads: FileUpload[];
  /** Closes the popup once nothing is uploading any more. */
  onClose: () => void;
  /** What closing during an upload does once confirmed (spec 4): reload the page, which stops the uploads. */
  onReload?: () => void;
};

const reloadPage = () => window.location.reload();

function UploadLine({ upload }: { upload: FileUpload }) {
  const percent = upload.progressPercentage;
  const color = upload.status === 'failed' ? 'red' : upload.status === 'done' ? 'teal' : undefined;
  return (
    <Stack gap={2} data-testid="file-upload">
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text size="sm" truncate="end" title={upload.name}>
          {upload.name}
        </Text>
        <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
          {upload.status === 'failed' ? 'Failed' : upload.status === 'waiting' ? 'Waiting' : `${percent}%`}
        </Text>
      </Group>
      <Progress value={upload.status === 'failed' ? 100 : percent} color={color} aria-label={`Upload of ${upload.name}`} />
      {upload.error && (
        <Text size="xs" c="red" role="alert">
          {upload.error}
        </Text>
      )}
    </Stack>
  );
}

/**
 * The 'File Uploads' popup (spec 2.5): a line per file with its progress from 0 to 100 and, when
 * it failed, the server's message. It sits in a corner without blocking the page, and can be
 * minimised to its title. Closing it while a file is still uploading asks first, then reloads the
 * page (which stops the uploads).
 */
export function FileUploadsPopup({ uploads, onClose, onReload = reloadPage }: FileUploadsPopupProps) {
  const titleId = useId();
  const [isMinimized, setIsMinimized] = useState(false);
  const [isConfirming, setIsConfirming] = useState(false);
  if (uploads.length === 0) return null;

  const running = uploads.filter(isUploadRunning).length;
  const failed = uploads.filter((u) => u.status === 'failed').length;
  const summary = running ? `${uploads.length - running} of ${uploads.length} done` : failed ? `${failed} failed` : 'All done';

  const handleClose = () => {
    if (running) setIsConfirming(true);
    else onClose();
  };

  return (
    <>
      <Paper
        role="dialog"
        aria-modal={false}
        aria-labelledby={titleId}
        shadow="lg"
        withBorder
        p="sm"
        w={340}
        style={{ position: 'fixed', right: 16, bottom: 16, zIndex: 150 }}
      >
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="xs" wrap="nowrap">
            <Text id={titleId} fw={600}>
              File Uploads
            </Text>
            <Text size="xs" c="dimmed" aria-live="polite">
              {summary}
            </Text>
          </Group>
          <Group gap={2} wrap="nowrap">
            <Tooltip label={isMinimized ? 'Expand' : 'Minimize'}>
              <ActionIcon variant="subtle" aria-label={isMinimized ? 'Expand File Uploads' : 'Minimize File Uploads'} aria-expanded={!isMinimized} onClick={() => setIsMinimized((m) => !m)}>
                {isMinimized ? <IconChevronUp size={16} /> : <IconChevronDown size={16} />}
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Close">
              <ActionIcon variant="subtle" aria-label="Close File Uploads" onClick={handleClose}>
                <IconX size={16} />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>
        {!isMinimized && (
          <ScrollArea.Autosize mah={280} mt="xs">
            <Stack gap="sm">
              {uploads.map((u) => (
                <UploadLine key={u.id} upload={u} />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
      </Paper>
      <ConfirmDialog
        opened={isConfirming}
        onClose={() => setIsConfirming(false)}
        title="Stop uploading?"
        message={STOP_UPLOADS_MESSAGE}
        confirmLabel="Close and reload"
        cancelLabel="Keep uploading"
        danger
        onConfirm={async () => onReload()}
        mutation={{ isPending: false, error: null }}
      />
    </>
  );
}
