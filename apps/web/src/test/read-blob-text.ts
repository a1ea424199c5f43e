/**
 * A Blob's text in tests on every supported Node. Under jsdom, Node 24's fetch answers a Blob of
 * jsdom's own class, which has no text(): it is read the way jsdom reads files.
 */
export async function readBlobText(blob: Blob): Promise<string> {
  if (typeof blob.text === 'function') return blob.text();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error('the blob could not be read'));
    reader.readAsText(blob);
  });
}
