import { ActionIcon, Badge, Code, Table, Text, Tooltip } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { ApiKey, ApiKeyStatus } from '@verbatim/contracts';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../format/dateTime';
import { formatCents } from '../../format/money';
import { currentLanguage } from '../../i18n/createI18n';

const statusColor: Record<ApiKeyStatus, string> = { active: 'teal', expired: 'gray', revoked: 'red' };

export interface ApiKeysTableProps {
  keys: readonly ApiKey[];
  onRevoke: (key: ApiKey) => void;
}

/** The keys of spec §3: prefix, name, created, expiry, last use, monthly cap, status; empty values show "-". */
export function ApiKeysTable({ keys, onRevoke }: ApiKeysTableProps) {
  const { t, i18n } = useTranslation();
  const orDash = (value: string | null) => value ?? '-';
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped highlightOnHover verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('screens.apiKeys.table.prefix')}</Table.Th>
            <Table.Th>{t('screens.apiKeys.table.name')}</Table.Th>
            <Table.Th>{t('screens.apiKeys.table.created')}</Table.Th>
            <Table.Th>{t('screens.apiKeys.table.expiry')}</Table.Th>
            <Table.Th>{t('screens.apiKeys.table.used')}</Table.Th>
            <Table.Th>{t('screens.apiKeys.table.monthlyCap')}</Table.Th>
            <Table.Th>{t('screens.apiKeys.table.status')}</Table.Th>
            <Table.Th>
              <Text component="span" fz="sm" fw={700}>
                {t('screens.apiKeys.table.actions')}
              </Text>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {keys.map((key) => (
            <Table.Tr key={key.id} data-testid={`api-key-${key.id}`}>
              <Table.Td>
                <Code>{key.prefix}…</Code>
              </Table.Td>
              <Table.Td>{orDash(key.name)}</Table.Td>
              <Table.Td>{formatDateTime(key.created)}</Table.Td>
              <Table.Td>{key.expiry ? formatDateTime(key.expiry) : '-'}</Table.Td>
              <Table.Td>{key.used ? formatDateTime(key.used) : '-'}</Table.Td>
              <Table.Td>
                {key.monthlyCapCents === null
                  ? '-'
                  : t('screens.apiKeys.table.capUsage', {
                      spent: formatCents(key.spentThisMonthCents, currentLanguage(i18n)),
                      cap: formatCents(key.monthlyCapCents, currentLanguage(i18n)),
                    })}
              </Table.Td>
              <Table.Td>
                <Badge color={statusColor[key.status]} variant="light">
                  {t(`screens.apiKeys.status.${key.status}`)}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Tooltip label={t('screens.apiKeys.table.revoke')}>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    onClick={() => onRevoke(key)}
                    aria-label={t('screens.apiKeys.table.revokeKey', { prefix: key.prefix })}
                  >
                    <IconTrash size={18} aria-hidden />
                  </ActionIcon>
                </Tooltip>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
