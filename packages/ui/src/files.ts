import { download } from './api-client.ts';

/** Saves a file the browser holds: an object URL and a temporary <a download>. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // The download has its own reference by now; the URL is let go a little later for slow browsers.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Where a notification's link goes: a page of the app (navigated to), or a file the server
 * keeps (`/api/reports/files/...`, a 'Report ready' notice), fetched with the session's token
 * and saved, as a page of that path does not exist.
 */
export async function followLink(link: string, navigate: (to: string) => void): Promise<void> {
  if (!link.startsWith('/api/')) {
    navigate(link);
    return;
  }
  const answer = await download(link);
  if (answer.blob) saveFile(answer.blob, answer.fileName ?? 'report');
}
