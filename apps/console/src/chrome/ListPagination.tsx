import { Group, Pagination } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface ListPaginationProps {
  /** How many pages there are; nothing shows for one. */
  total: number;
  page: number;
  onChange: (page: number) => void;
}

/** The page controls under a paged list (spec §4 Paged lists), each named for screen readers. */
export function ListPagination({ total, page, onChange }: ListPaginationProps) {
  const { t } = useTranslation();
  if (total <= 1) return null;
  return (
    <Group justify="center" mt="md">
      <Pagination
        total={total}
        value={page}
        onChange={onChange}
        getControlProps={(control) => ({ 'aria-label': t(`chrome.pagination.${control}`) })}
        getItemProps={(item) => ({ 'aria-label': t('chrome.pagination.page', { page: item }) })}
      />
    </Group>
  );
}
