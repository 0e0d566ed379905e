/** The tag the server adds to index.html with its PUBLIC_URL (apps/server console-static.ts). */
const publicUrlMetaName = 'verbatim-public-url';

export interface WrongAddress {
  /** Where the console works: the server's PUBLIC_URL, with this page's path and query. */
  publicPageUrl: string;
  publicUrl: string;
  /** The origin this page was opened at. */
  openedAt: string;
}

/**
 * Whether this console runs at another origin than the server's PUBLIC_URL, where signing in
 * cannot work (the identity provider accepts the public origin only). The server redirects page
 * loads to PUBLIC_URL; it serves the page at another address only when a redirect cannot help, as
 * when PUBLIC_URL names localhost and the browser runs on another machine.
 */
export function wrongAddressOf(document: Document, location: Location): WrongAddress | undefined {
  const publicUrl = document.querySelector<HTMLMetaElement>(`meta[name="${publicUrlMetaName}"]`)?.content;
  if (!publicUrl) return undefined;
  let publicOrigin: string;
  try {
    publicOrigin = new URL(publicUrl).origin;
  } catch {
    return undefined;
  }
  if (publicOrigin === location.origin) return undefined;
  return {
    publicPageUrl: `${publicUrl.replace(/\/+$/, '')}${location.pathname}${location.search}${location.hash}`,
    publicUrl,
    openedAt: location.origin,
  };
}
