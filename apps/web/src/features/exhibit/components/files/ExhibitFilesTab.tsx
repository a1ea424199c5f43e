import { Alert, Anchor, Button, FileButton, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconExternalLink, IconTrash, IconUpload } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { can, fileNameProblem, parseRole, type Exhibit } from '@plinth/shared';
import { PageState } from '../../../../components/PageState';
import { QueryGate } from '../../../../components/QueryGate';
import { useOrganization } from '../../../../lib/api/get-organization';
import { usePublicConfig } from '../../../../lib/api/get-public-config';
import { formatFileSize } from '../../../../lib/format-file-size';
import { paths } from '../../../../lib/paths';
import { useExhibitFiles } from '../../api/list-files';
import { useUploadFiles } from '../../api/upload-files';
import { contentManagerUrl, mediaLibraryUrl } from '../../lib/content-manager';
import { DEFAULT_FILE_SORT, isDeletable, type FileSort } from '../../lib/file-table';
import { DeleteFilesDialogs } from './DeleteFilesDialogs';
import { FilesTable } from './FilesTable';
import { FileUploadsPopup } from './FileUploadsPopup';

export const ORG_CONTENT_UNAVAILABLE = 'Organizational Content is unavailable now';

/** Why Upload Files is disabled, or null when it is not. */
function uploadBlock({ canEdit, isFollower, hasChecked }: { canEdit: boolean; isFollower: boolean; hasChecked: boolean }): string | null {
  if (!canEdit) return 'Your role on this exhibit does not allow uploading files.';
  if (isFollower) return "This exhibit uses its leader's files: upload them on the leader.";
  if (hasChecked) return 'Clear the selection to upload files.';
  return null;
}

/** The first refused file of a selection (its name, or its size over the server's limit): one such file refuses them all (spec 5). */
function selectionProblem(files: File[], maxFileBytes: number | undefined): string | null {
  for (const file of files) {
    const problem = fileNameProblem(file.name);
    if (problem) return problem;
    if (maxFileBytes !== undefined && file.size > maxFileBytes) {
      return `${file.name} is larger than the upload limit of ${formatFileSize(maxFileBytes)}.`;
    }
  }
  return null;
}

/**
 * The exhibit's Files tab (spec 2.5): the files with their count, Upload Files (several at once,
 * with the 'File Uploads' progress popup) and Delete Files for the checked ones (with the warning
 * when settings or scheduled events use them), for users whose role may edit files. A follower
 * shows its leader's files and changes none. Organizational files come from the content manager,
 * which is linked when the organization has one.
 */
export function ExhibitFilesTab({ exhibit }: { exhibit: Exhibit }) {
  const canEdit = can(parseRole(exhibit.role), 'editFiles');
  const isFollower = exhibit.leaderId !== null;
  const canChange = canEdit && !isFollower;
  const input = { exhibitId: exhibit.id, siteId: exhibit.siteId };
  const list = useExhibitFiles(input);
  const organization = useOrganization(exhibit.organizationId);
  const cmsUrl = contentManagerUrl(organization.data?.organizationsettings);
  const uploads = useUploadFiles(input);
  const config = usePublicConfig();
  const resetPicker = useRef<() => void>(null);
  const [sort, setSort] = useState<FileSort>(DEFAULT_FILE_SORT);
  const [checked, setChecked] = useState<Set<string>>(new Set());
  const [refusal, setRefusal] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string[] | null>(null);

  const files = list.data?.files ?? [];
  const checkedNames = files.filter((f) => isDeletable(f) && checked.has(f.name)).map((f) => f.name);
  const blocked = uploadBlock({ canEdit, isFollower, hasChecked: checkedNames.length > 0 });

  const handlePick = (picked: File[]) => {
    resetPicker.current?.();
    if (picked.length === 0) return;
    const problem = selectionProblem(picked, config.data?.maxFileBytes);
    setRefusal(problem);
    if (!problem) uploads.start(picked);
  };

  const handleDeleted = (names: string[]) =>
    setChecked((current) => {
      const next = new Set(current);
      for (const name of names) next.delete(name);
      return next;
    });

  const uploadButton = (
    <FileButton
      onChange={handlePick}
      multiple
      disabled={blocked !== null}
      resetRef={resetPicker}
      inputProps={{ 'aria-label': 'Files to upload', disabled: blocked !== null }}
    >
      {(props) => (
        <Button {...props} leftSection={<IconUpload size={16} />} disabled={blocked !== null}>
          Upload Files
        </Button>
      )}
    </FileButton>
  );

  const body = (
    <QueryGate query={list} loading="Loading files" failed="The files of this exhibit cannot be shown right now.">
      {(data) =>
        data.files.length === 0 ? (
          <PageState kind="empty" label={isFollower ? 'The leader of this exhibit has no files yet.' : 'This exhibit has no files yet.'} />
        ) : (
          <FilesTable
            exhibitId={exhibit.id}
            files={data.files}
            sort={sort}
            onSortChange={setSort}
            checked={canChange ? checked : null}
            onCheckedChange={setChecked}
            contentManagerUrl={cmsUrl}
          />
        )
      }
    </QueryGate>
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={4}>{list.data ? `Files (${files.length})` : 'Files'}</Title>
        <Group gap="xs">
          {cmsUrl && (
            <Anchor href={mediaLibraryUrl(cmsUrl)} target="_blank" rel="noopener noreferrer" size="sm">
              <Group gap={4} wrap="nowrap" component="span">
                Organizational media library
                <IconExternalLink size={14} aria-hidden />
              </Group>
            </Anchor>
          )}
          {canChange && (
            <Button color="red" variant="light" leftSection={<IconTrash size={16} />} disabled={checkedNames.length === 0} onClick={() => setDeleting(checkedNames)}>
              Delete Files
            </Button>
          )}
          {blocked ? (
            <Tooltip label={blocked}>
              <span>{uploadButton}</span>
            </Tooltip>
          ) : (
            uploadButton
          )}
        </Group>
      </Group>
      {isFollower && exhibit.leader && (
        <Text size="sm" c="dimmed" data-testid="files-leader-note">
          This exhibit is synced to{' '}
          <Anchor component={Link} to={paths.exhibit(exhibit.organizationId, exhibit.siteId, exhibit.leader.id, 'files')} size="sm">
            {exhibit.leader.name}
          </Anchor>
          : these are its files, uploaded and deleted there.
        </Text>
      )}
      {refusal && (
        <Alert color="red" variant="light" role="alert" p="xs" withCloseButton closeButtonLabel="Dismiss" onClose={() => setRefusal(null)}>
          {refusal}
        </Alert>
      )}
      {list.data && list.data.errors.length > 0 && (
        <Alert color="yellow" variant="light" p="xs">
          {ORG_CONTENT_UNAVAILABLE}
        </Alert>
      )}
      {body}
      <DeleteFilesDialogs files={input} fileNames={deleting} onClose={() => setDeleting(null)} onDeleted={handleDeleted} />
      <FileUploadsPopup uploads={uploads.uploads} onClose={uploads.clear} />
    </Stack>
  );
}
