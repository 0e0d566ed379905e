import { Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../format/dateTime';
import { CrmDeliveryBadge } from './CrmDeliveryBadge';
import { FileActions } from './FileActions';
import { durationOf, FileIdentity, languageOf } from './fileFacts';
import type { FilesTableProps } from './FilesTable';
import { TranscriptStatusBadge } from './TranscriptStatusBadge';

/** The files on a phone: one card each, with the table's facts as labelled lines. */
export function FileCards({ files, showCrmDeliveries = false, ...actions }: FilesTableProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" component="ul" aria-label={t('screens.submittedFiles.tableLabel')} p={0} m={0}>
      {files.map((file) => (
        <Card
          key={file.id}
          component="li"
          withBorder
          radius="md"
          padding="sm"
          data-file-id={file.id}
          style={{ listStyle: 'none' }}
        >
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
            <FileIdentity file={file} />
            <FileActions file={file} {...actions} />
          </Group>
          <Group gap="xs" mt="xs">
            {file.isCompleted ? (
              <TranscriptStatusBadge file={file} />
            ) : (
              <Text fz="sm">{t('screens.submittedFiles.uploadIncomplete')}</Text>
            )}
            {showCrmDeliveries && file.transcriptStatus === 'done' && <CrmDeliveryBadge fileId={file.id} />}
          </Group>
          {file.failureReason && (
            <Text fz="sm" c="red" mt={4}>
              {file.failureReason}
            </Text>
          )}
          <SimpleGrid cols={2} spacing="xs" verticalSpacing={4} mt="xs">
            <Fact label={t('screens.submittedFiles.columns.createdAt')}>
              {formatDateTime(file.creationDate)}
            </Fact>
            <Fact label={t('screens.submittedFiles.columns.duration')}>{durationOf(file)}</Fact>
            <Fact label={t('screens.submittedFiles.columns.language')}>{languageOf(file)}</Fact>
            {file.callbackUrl && (
              <Fact label={t('screens.submittedFiles.columns.webhookUrl')}>
                <Text fz="sm" lineClamp={1} title={file.callbackUrl} style={{ wordBreak: 'break-all' }}>
                  {file.callbackUrl}
                </Text>
              </Fact>
            )}
          </SimpleGrid>
        </Card>
      ))}
    </Stack>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text fz="xs" c="dimmed">
        {label}
      </Text>
      <Text fz="sm" component="div">
        {children}
      </Text>
    </div>
  );
}
