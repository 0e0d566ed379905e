import { ActionIcon, Code, Menu, Stack, Table, Text } from '@mantine/core';
import { IconDots, IconDownload, IconPlugConnected, IconTrash, IconWebhook } from '@tabler/icons-react';
import { type DownloadFormat, downloadFormats, type SubmittedFile } from '@verbatim/contracts';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatDuration } from '../../format/dateTime';
import { downloadTranscript } from './filesApi';
import { CrmDeliveryBadge } from './CrmDeliveryBadge';
import { TranscriptStatusBadge } from './TranscriptStatusBadge';

const formats = Object.keys(downloadFormats) as DownloadFormat[];

export interface FilesTableProps {
  files: readonly SubmittedFile[];
  onDelete: (file: SubmittedFile) => void;
  onShowWebhook: (file: SubmittedFile) => void;
  /** Send to CRM (integrations), offered on done transcripts. */
  onSendToCrm?: (file: SubmittedFile) => void;
  /** Show each done transcript's latest CRM delivery (the account has a CRM connection). */
  showCrmDeliveries?: boolean;
}

/** Spec §2 Submitted files: the columns of the table, one row per file. */
export function FilesTable({
  files,
  onDelete,
  onShowWebhook,
  onSendToCrm,
  showCrmDeliveries = false,
}: FilesTableProps) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={1180}>
      <Table
        striped
        highlightOnHover
        verticalSpacing="sm"
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
            <FileRow
              key={file.id}
              file={file}
              onDelete={onDelete}
              onShowWebhook={onShowWebhook}
              onSendToCrm={onSendToCrm}
              showCrmDeliveries={showCrmDeliveries}
            />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function FileRow({
  file,
  onDelete,
  onShowWebhook,
  onSendToCrm,
  showCrmDeliveries,
}: { file: SubmittedFile } & Pick<
  FilesTableProps,
  'onDelete' | 'onShowWebhook' | 'onSendToCrm' | 'showCrmDeliveries'
>) {
  const { t } = useTranslation();
  const language =
    file.detectedLanguage && file.detectedLanguage !== file.languageCode
      ? `${file.languageCode} → ${file.detectedLanguage}`
      : file.languageCode;
  return (
    <Table.Tr data-file-id={file.id}>
      <Table.Td>
        <Stack gap={2}>
          <Code style={{ whiteSpace: 'nowrap' }}>{file.id}</Code>
          <Text fz="xs" c="dimmed" lineClamp={1} maw={220} title={file.fileName}>
            {file.fileName}
          </Text>
        </Stack>
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(file.creationDate)}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{language}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        {file.duration === null ? '-' : formatDuration(file.duration)}
      </Table.Td>
      <Table.Td>
        {file.callbackUrl ? (
          <Text fz="sm" lineClamp={1} maw={220} title={file.callbackUrl} style={{ wordBreak: 'break-all' }}>
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
        <Text fz="sm" maw={240}>
          {file.failureReason ?? '-'}
        </Text>
      </Table.Td>
      <Table.Td>
        <FileActions
          file={file}
          onDelete={onDelete}
          onShowWebhook={onShowWebhook}
          onSendToCrm={onSendToCrm}
        />
      </Table.Td>
    </Table.Tr>
  );
}

function FileActions({
  file,
  onDelete,
  onShowWebhook,
  onSendToCrm,
}: { file: SubmittedFile } & Pick<FilesTableProps, 'onDelete' | 'onShowWebhook' | 'onSendToCrm'>) {
  const { t } = useTranslation();
  const download = useMutation({
    mutationFn: (format: DownloadFormat) => downloadTranscript(file, format),
    meta: { successMessage: false, errorMessage: 'screens.submittedFiles.downloadFailed' },
  });
  const label = t('screens.submittedFiles.actionsFor', { id: file.id });
  return (
    <Menu position="bottom-end" withinPortal shadow="md">
      <Menu.Target>
        <ActionIcon variant="subtle" aria-label={label} title={label} loading={download.isPending}>
          <IconDots size={18} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('screens.submittedFiles.download')}</Menu.Label>
        {formats.map((format) => (
          <Menu.Item
            key={format}
            leftSection={<IconDownload size={16} aria-hidden />}
            disabled={file.transcriptStatus !== 'done'}
            onClick={() => download.mutate(format)}
          >
            {t(`screens.submittedFiles.formats.${downloadFormats[format]}`)}
          </Menu.Item>
        ))}
        {onSendToCrm && (
          <>
            <Menu.Divider />
            <Menu.Item
              leftSection={<IconPlugConnected size={16} aria-hidden />}
              disabled={file.transcriptStatus !== 'done'}
              onClick={() => onSendToCrm(file)}
            >
              {t('screens.integrations.send.action')}
            </Menu.Item>
          </>
        )}
        {file.callbackUrl && (
          <>
            <Menu.Divider />
            <Menu.Item
              leftSection={<IconWebhook size={16} aria-hidden />}
              onClick={() => onShowWebhook(file)}
            >
              {t('screens.submittedFiles.webhookDeliveries')}
            </Menu.Item>
          </>
        )}
        <Menu.Divider />
        <Menu.Item
          color="red"
          leftSection={<IconTrash size={16} aria-hidden />}
          onClick={() => onDelete(file)}
        >
          {t('screens.submittedFiles.deleteAction')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
