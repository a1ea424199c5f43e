/** How long a saved file's object URL stays valid after the click (the browser reads it by then). */
const REVOKE_AFTER_MS = 10_000;

/**
 * Saves `blob` as a download named `fileName`: a temporary object URL behind an anchor with the
 * download attribute, clicked once and removed.
 */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.rel = 'noopener';
  anchor.style.display = 'none';
  document.body.appendChild(anchor);
  try {
    anchor.click();
  } finally {
    anchor.remove();
    setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
  }
}
