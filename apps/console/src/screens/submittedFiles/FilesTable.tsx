import { Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { SubmittedFile } from '@verbatim/contracts';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../format/dateTime';
import { CrmDeliveryBadge } from './CrmDeliveryBadge';
import { FileActions, type FileActionHandlers } from './FileActions';
import { FileCards } from './FileCards';
import { durationOf, FileIdentity, languageOf } from './fileFacts';
import { TranscriptStatusBadge } from './TranscriptStatusBadge';

export interface FilesTableProps extends FileActionHandlers {
  files: readonly SubmittedFile[];
  /** Show each done transcript's latest CRM delivery (the account has a CRM connection). */
  showCrmDeliveries?: boolean;
}

/** Below Mantine's `sm` breakpoint (where the sidebar folds away) the files are cards, not a table. */
export const phoneWidthQuery = '(max-width: 47.99em)';

/**
 * Spec §2 Submitted files: the columns of the table, one row per file. Cells wrap and long values
 * are cut with their full text in a tooltip, so that status and actions show without sideways
 * scrolling on a 1366 px laptop; on a phone each file is a card.
 */
export function FilesTable(props: FilesTableProps) {
  const phone = useMediaQuery(phoneWidthQuery, false, { getInitialValueInEffect: false });
  return phone ? <FileCards {...props} /> : <FilesGrid {...props} />;
}

function FilesGrid({ files, showCrmDeliveries = false, ...actions }: FilesTableProps) {
  const { t } = useTranslation();
  return (
    // Scrolls only on a tablet too narrow for every column.
    <Table.ScrollContainer minWidth={820}>
      <Table
        striped
        highlightOnHover
        verticalSpacing="sm"
        horizontalSpacing="xs"
        fz="sm"
        aria-label={t('screens.submittedFiles.tableLabel')}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('screens.submittedFiles.columns.fileId')}</Table.Th>
            <Table.Th>{t('screens.submittedFiles.columns.createdAt')}</Table.Th>
            <Table.Th>{t('screens.submittedFiles.columns.language')}</Table.Th>
            <Table.Th>{t('screens.submittedFiles.columns.duration')}</Table.Th>
            <Table.Th>{t('screens.submittedFiles.columns.webhookUrl')}</Table.Th>
            <Table.Th>{t('screens.submittedFiles.columns.uploaded')}</Table.Th>
            <Table.Th>{t('screens.submittedFiles.columns.transcriptStatus')}</Table.Th>
            {showCrmDeliveries && <Table.Th>{t('screens.submittedFiles.columns.crm')}</Table.Th>}
            <Table.Th>{t('screens.submittedFiles.columns.failureReason')}</Table.Th>
            <Table.Th>{t('screens.submittedFiles.columns.actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {files.map((file) => (
            <Table.Tr key={file.id} data-file-id={file.id}>
              <Table.Td maw={170}>
                <FileIdentity file={file} nameWidth={170} />
              </Table.Td>
              <Table.Td miw={90}>{formatDateTime(file.creationDate)}</Table.Td>
              <Table.Td>{languageOf(file)}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{durationOf(file)}</Table.Td>
              <Table.Td>
                {file.callbackUrl ? (
                  <Text
                    fz="sm"
                    lineClamp={2}
                    maw={140}
                    title={file.callbackUrl}
                    style={{ wordBreak: 'break-all' }}
                  >
                    {file.callbackUrl}
                  </Text>
                ) : (
                  '-'
                )}
              </Table.Td>
              <Table.Td>
                {file.isCompleted ? t('screens.submittedFiles.yes') : t('screens.submittedFiles.no')}
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                {file.isCompleted ? <TranscriptStatusBadge file={file} /> : '-'}
              </Table.Td>
              {showCrmDeliveries && (
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {file.transcriptStatus === 'done' ? <CrmDeliveryBadge fileId={file.id} /> : '-'}
                </Table.Td>
              )}
              <Table.Td>
                <Text fz="sm" maw={160} lineClamp={3} title={file.failureReason ?? undefined}>
                  {file.failureReason ?? '-'}
                </Text>
              </Table.Td>
              <Table.Td>
                <FileActions file={file} {...actions} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
