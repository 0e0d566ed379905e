import type { UIMatch } from 'react-router';
import type { TranslationKey } from '../i18n/translationKey';

/**
 * Metadata a route declares in its `handle`; the chrome reads it from the matched routes to build
 * the page title, the meta description and the breadcrumbs.
 */
export interface RouteHandle {
  titleKey?: TranslationKey;
  descriptionKey?: TranslationKey;
  /** Present on routes that appear in the breadcrumb trail. */
  breadcrumb?: {
    labelKey: TranslationKey;
    /** Where the crumb links to; defaults to the path the route matched. */
    to?: string;
  };
}

export function routeHandleOf(match: UIMatch): RouteHandle | undefined {
  const { handle } = match;
  // Handles are typed as unknown by react-router; every route of this app declares a RouteHandle.
  return typeof handle === 'object' && handle !== null ? handle : undefined;
}
