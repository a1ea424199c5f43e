import { API_BASE, withQuery } from '../../../lib/api-client';

/**
 * GET /content/files/?exhibitId&fileName: the address of one file's content, sent as an attachment.
 * An anchor with the download attribute fetches it with the session cookie, and the browser streams
 * it to disk (a 2 GB video never sits in the page's memory), which a fetch and a blob would not.
 */
export const fileDownloadUrl = ({ exhibitId, fileName }: { exhibitId: string; fileName: string }) =>
  withQuery(`${API_BASE}/content/files/`, { exhibitId, fileName });
