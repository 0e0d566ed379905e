import { Alert, Loader } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface QueryContentProps<TData> {
  query: UseQueryResult<TData>;
  /** What the alert says when the query failed. */
  failedText: string;
  /** For a list: whether the loaded data has nothing in it, and what is shown then instead. */
  isEmpty?: (data: TData) => boolean;
  empty?: ReactNode;
  /** What the loaded data shows. */
  children: (data: TData) => ReactNode;
}

/**
 * A query's part of a screen: a small loader while it loads, an alert if it failed, the empty state
 * of a list with nothing in it, else its data.
 */
export function QueryContent<TData>({
  query,
  failedText,
  isEmpty,
  empty,
  children,
}: QueryContentProps<TData>) {
  const { t } = useTranslation();
  if (query.isPending) return <Loader size="sm" aria-label={t('chrome.loading')} />;
  if (query.isError) {
    return (
      <Alert color="red" variant="light" role="alert">
        {failedText}
      </Alert>
    );
  }
  if (isEmpty?.(query.data)) return empty;
  return children(query.data);
}
