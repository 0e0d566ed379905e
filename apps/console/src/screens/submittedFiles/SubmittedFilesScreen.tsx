import { Alert, Anchor, Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconCloudUpload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { filesPageSize, type SubmittedFile } from '@verbatim/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { usePageParam } from '../../app/usePageParam';
import { ListPagination } from '../../chrome/ListPagination';
import { integrationsQuery } from '../integrations/integrationsApi';
import { SendToCrmModal } from '../integrations/SendToCrmModal';
import { DeleteFileModal } from './DeleteFileModal';
import { filesPageQuery } from './filesApi';
import { FilesTable } from './FilesTable';
import { UploadFileModal } from './UploadFileModal';
import { WebhookAttemptsModal } from './WebhookAttemptsModal';
import { WebhookSecretCard } from './WebhookSecretCard';

/** The address that opens the upload modal at once (Home's Upload file button leads there). */
export const uploadParam = 'upload';

/**
 * How many pages the table has: from the total, and at least one past the current page while the
 * server names a next page (`pagination.next_page`).
 */
export function pageCountOf(page: number, pagination: { next_page: number | null; total: number }): number {
  return Math.max(
    1,
    Math.ceil(pagination.total / filesPageSize),
    pagination.next_page === null ? page : page + 1,
  );
}

/** /submitted-files (spec §2): the files uploaded for transcription, 10 a page, and the upload modal. */
export function SubmittedFilesScreen() {
  const { t } = useTranslation();
  const [page, setPage] = usePageParam();
  const [searchParams, setSearchParams] = useSearchParams();
  const files = useQuery(filesPageQuery((page - 1) * filesPageSize));
  const integrations = useQuery(integrationsQuery);
  const hasCrm = (integrations.data?.integrations.length ?? 0) > 0;
  const [toDelete, setToDelete] = useState<SubmittedFile | null>(null);
  const [webhookOf, setWebhookOf] = useState<SubmittedFile | null>(null);
  const [toSend, setToSend] = useState<SubmittedFile | null>(null);
  const uploadOpened = searchParams.has(uploadParam);
  const setUploadOpened = (opened: boolean) =>
    setSearchParams((params) => {
      if (opened) params.set(uploadParam, '');
      else params.delete(uploadParam);
      return params;
    });
  const pageCount = files.data ? pageCountOf(page, files.data.pagination) : 1;

  return (
    <Stack gap="lg" py="md">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <div>
          <Title order={1}>{t('screens.submittedFiles.title')}</Title>
          <Text c="dimmed" mt={4}>
            {t('screens.submittedFiles.intro')}
          </Text>
        </div>
        <Button leftSection={<IconCloudUpload size={18} aria-hidden />} onClick={() => setUploadOpened(true)}>
          {t('screens.submittedFiles.uploadButton')}
        </Button>
      </Group>
      <Card withBorder radius="md" padding="lg">
        {files.isPending && <Skeleton h={160} aria-label={t('chrome.loading')} />}
        {files.isError && (
          <Alert color="orange" variant="light">
            {t('screens.submittedFiles.unavailable')}
          </Alert>
        )}
        {files.data?.pagination.total === 0 && (
          <Stack align="center" gap="xs" py="xl">
            <Text fw={500}>{t('screens.submittedFiles.empty')}</Text>
            <Anchor component="button" type="button" fz="sm" onClick={() => setUploadOpened(true)}>
              {t('screens.submittedFiles.emptyUpload')}
            </Anchor>
          </Stack>
        )}
        {files.data && files.data.pagination.total > 0 && files.data.list.length === 0 && (
          // A page past the end, from an old link: say so rather than "no files".
          <Stack align="center" gap="xs" py="xl">
            <Text fw={500}>{t('screens.submittedFiles.pageEmpty')}</Text>
            <Anchor component="button" type="button" fz="sm" onClick={() => setPage(1)}>
              {t('screens.submittedFiles.firstPage')}
            </Anchor>
          </Stack>
        )}
        {files.data && files.data.list.length > 0 && (
          <FilesTable
            files={files.data.list}
            onDelete={setToDelete}
            onShowWebhook={setWebhookOf}
            onSendToCrm={setToSend}
            showCrmDeliveries={hasCrm}
          />
        )}
        <ListPagination total={pageCount} page={page} onChange={setPage} />
      </Card>
      <WebhookSecretCard />
      <UploadFileModal
        opened={uploadOpened}
        onClose={() => setUploadOpened(false)}
        // The new file is the newest: it shows first on the first page.
        onUploaded={() =>
          setSearchParams((params) => {
            params.delete(uploadParam);
            params.delete('page');
            return params;
          })
        }
      />
      <DeleteFileModal file={toDelete} onClose={() => setToDelete(null)} />
      <WebhookAttemptsModal file={webhookOf} onClose={() => setWebhookOf(null)} />
      <SendToCrmModal
        transcript={toSend ? { id: toSend.id, name: toSend.fileName } : null}
        onClose={() => setToSend(null)}
      />
    </Stack>
  );
}
