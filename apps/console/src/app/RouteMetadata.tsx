import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';
import { DocumentMetadata } from './DocumentMetadata';
import { routeHandleOf } from './routeHandle';

/** Document title and description of the deepest matched route that declares them. */
export function RouteMetadata() {
  const { t } = useTranslation();
  const handles = useMatches().map(routeHandleOf);
  const titleKey = handles.findLast((handle) => handle?.titleKey)?.titleKey;
  const descriptionKey = handles.findLast((handle) => handle?.descriptionKey)?.descriptionKey;
  return (
    <DocumentMetadata title={titleKey && t(titleKey)} description={descriptionKey && t(descriptionKey)} />
  );
}
