import { Anchor, Breadcrumbs, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useMatches } from 'react-router';
import { routeHandleOf } from '../app/routeHandle';

/** The trail of matched routes that declare a breadcrumb; the last one is the current page. */
export function RouteBreadcrumbs() {
  const { t } = useTranslation();
  const crumbs = useMatches().flatMap((match) => {
    const breadcrumb = routeHandleOf(match)?.breadcrumb;
    return breadcrumb
      ? [{ id: match.id, label: t(breadcrumb.labelKey), to: breadcrumb.to ?? match.pathname }]
      : [];
  });
  if (crumbs.length === 0) return null;

  return (
    <nav aria-label={t('chrome.breadcrumbs.label')}>
      <Breadcrumbs separatorMargin={6} fz="sm">
        {crumbs.map((crumb, index) =>
          index === crumbs.length - 1 ? (
            <Text key={crumb.id} fz="sm" c="dimmed" aria-current="page">
              {crumb.label}
            </Text>
          ) : (
            <Anchor key={crumb.id} component={Link} to={crumb.to} fz="sm">
              {crumb.label}
            </Anchor>
          ),
        )}
      </Breadcrumbs>
    </nav>
  );
}
