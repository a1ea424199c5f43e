import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import type { ContentFile } from '@plinth/shared';
import { apiUpload } from '../../../lib/api-client';
import { errorText } from '../../../lib/mutation-state';
import { queryKeys } from '../../../lib/query-keys';
import type { ExhibitFilesInput } from './list-files';

export type UploadFileInput = ExhibitFilesInput & {
  file: File;
  /** Percent sent, 0 to 99; the answer makes it 100. */
  onProgress?: (percent: number) => void;
};

/** POST /content/files/upload?exhibitId&siteId: one file (multipart field `file`); replaces a file of that name. */
export const uploadFile = ({ exhibitId, siteId, file, onProgress }: UploadFileInput) => {
  const form = new FormData();
  form.append('file', file, file.name);
  return apiUpload<{ files: ContentFile[] }>({ path: '/content/files/upload', query: { exhibitId, siteId }, form, onProgress });
};

/** One line of the 'File Uploads' popup (spec: uploading file entry). */
export type FileUpload = {
  id: number;
  name: string;
  /** 0 to 100; 100 once the server has stored the file. */
  progressPercentage: number;
  status: 'waiting' | 'uploading' | 'done' | 'failed';
  /** Why it failed: the server's message (a refused name, a file over the size limit…). */
  error: string | null;
};

/** Whether an upload has not ended yet (closing the popup then stops it). */
export const isUploadRunning = (upload: FileUpload) => upload.status === 'waiting' || upload.status === 'uploading';

/**
 * Uploads files one after the other, one request each, so each line of the popup shows its own
 * real progress and one refused file does not stop the others; the exhibit's file list is read
 * again after each stored file. `uploads` is what the popup shows; `clear` empties it.
 */
export function useUploadFiles(input: ExhibitFilesInput) {
  const queryClient = useQueryClient();
  const { exhibitId } = input;
  const upload = useMutation({
    mutationFn: uploadFile,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.exhibitFiles(exhibitId) }),
  });
  const [uploads, setUploads] = useState<FileUpload[]>([]);
  const nextId = useRef(0);
  // One upload at a time: a queue of promises, each started when the one before it ended.
  const queue = useRef<Promise<void>>(Promise.resolve());
  const { mutateAsync } = upload;

  const patch = useCallback((id: number, change: Partial<FileUpload>) => {
    setUploads((list) => list.map((u) => (u.id === id ? { ...u, ...change } : u)));
  }, []);

  const start = useCallback(
    (files: File[]) => {
      const entries = files.map((file) => ({ file, id: nextId.current++ }));
      setUploads((list) => [
        ...list,
        ...entries.map(({ file, id }): FileUpload => ({ id, name: file.name, progressPercentage: 0, status: 'waiting', error: null })),
      ]);
      for (const { file, id } of entries) {
        queue.current = queue.current.then(async () => {
          patch(id, { status: 'uploading' });
          try {
            await mutateAsync({ ...input, file, onProgress: (percent) => patch(id, { progressPercentage: percent }) });
            patch(id, { status: 'done', progressPercentage: 100 });
          } catch (error) {
            patch(id, { status: 'failed', error: errorText(error, 'The upload failed.') });
          }
        });
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the input's two ids stand for it
    [mutateAsync, patch, input.exhibitId, input.siteId],
  );

  const clear = useCallback(() => setUploads([]), []);
  return { uploads, start, clear };
}
