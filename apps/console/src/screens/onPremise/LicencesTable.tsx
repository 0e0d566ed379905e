import { Badge, Code, Table } from '@mantine/core';
import type { Licence, LicenceStatus } from '@verbatim/contracts';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../format/dateTime';
import { hoursAndMinutes } from './licenceDuration';

export const licenceStatusColor: Record<LicenceStatus, string> = {
  active: 'teal',
  expiring: 'yellow',
  expired: 'gray',
  suspended: 'red',
  exhausted: 'orange',
};

/** Spec §2 On-premise: Name, Key prefix, Status, Created, Expiry, Used, Total available; "-" when empty. */
export function LicencesTable({ licences }: { licences: readonly Licence[] }) {
  const { t } = useTranslation();
  const orDash = (value: string | null | undefined) => (value ? value : '-');
  const duration = (seconds: number | null | undefined) =>
    seconds === null || seconds === undefined
      ? '-'
      : t('screens.onPremise.duration', hoursAndMinutes(seconds));
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped highlightOnHover verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('screens.onPremise.table.name')}</Table.Th>
            <Table.Th>{t('screens.onPremise.table.keyPrefix')}</Table.Th>
            <Table.Th>{t('screens.onPremise.table.status')}</Table.Th>
            <Table.Th>{t('screens.onPremise.table.created')}</Table.Th>
            <Table.Th>{t('screens.onPremise.table.expiry')}</Table.Th>
            <Table.Th>{t('screens.onPremise.table.used')}</Table.Th>
            <Table.Th>{t('screens.onPremise.table.total')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {licences.map((licence) => (
            <Table.Tr key={licence.id} data-testid={`licence-${licence.id}`}>
              <Table.Td>{orDash(licence.name)}</Table.Td>
              <Table.Td>{licence.keyPrefix ? <Code>{licence.keyPrefix}…</Code> : '-'}</Table.Td>
              <Table.Td>
                <Badge color={licenceStatusColor[licence.status]} variant="light">
                  {t(`screens.onPremise.status.${licence.status}`)}
                </Badge>
              </Table.Td>
              <Table.Td>{licence.created ? formatDateTime(licence.created) : '-'}</Table.Td>
              <Table.Td>{licence.expiry ? formatDateTime(licence.expiry) : '-'}</Table.Td>
              <Table.Td>{duration(licence.uses)}</Table.Td>
              <Table.Td>{duration(licence.maxUses)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
