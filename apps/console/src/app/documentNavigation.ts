/**
 * Leaving the single-page app for a full page load (sign-in reload, identity-provider redirects).
 * An object so tests can replace `assign`, which jsdom does not implement.
 */
export const documentNavigation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};
