import { Alert, Badge, Button, Group, Loader, Modal, Stack, Table, Text } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import type { SubmittedFile } from '@verbatim/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../format/dateTime';
import { filesQueryKey, resendWebhook, webhookAttemptsQuery } from './filesApi';

/** The deliveries of one file's webhook, each attempt as logged, and "resend". */
export function WebhookAttemptsModal({ file, onClose }: { file: SubmittedFile | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={file !== null}
      onClose={onClose}
      title={t('screens.submittedFiles.webhook.title')}
      centered
      size="xl"
    >
      {file && <WebhookAttempts file={file} />}
    </Modal>
  );
}

function WebhookAttempts({ file }: { file: SubmittedFile }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const attempts = useQuery({
    ...webhookAttemptsQuery(file.id),
    // A delivery waiting for its next attempt changes by itself.
    refetchInterval: (query) =>
      query.state.data?.attempts.some((attempt) => attempt.nextAttemptAt) ? 5_000 : false,
  });
  const resend = useMutation({
    mutationFn: () => resendWebhook(file.id),
    meta: { successMessage: 'toast.webhookResent', errorMessage: 'toast.webhookResendFailed' },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: filesQueryKey }),
  });
  const finished = file.transcriptStatus === 'done' || file.transcriptStatus === 'processing_failed';

  return (
    <Stack gap="md">
      <Text fz="sm" style={{ wordBreak: 'break-all' }}>
        {t('screens.submittedFiles.webhook.url')} <strong>{file.callbackUrl}</strong>
      </Text>
      {attempts.isPending && <Loader size="sm" aria-label={t('chrome.loading')} />}
      {attempts.isError && (
        <Alert color="orange" variant="light">
          {t('screens.submittedFiles.webhook.unavailable')}
        </Alert>
      )}
      {attempts.data?.attempts.length === 0 && (
        <Text c="dimmed">{t('screens.submittedFiles.webhook.none')}</Text>
      )}
      {attempts.data && attempts.data.attempts.length > 0 && (
        <Table.ScrollContainer minWidth={560}>
          <Table striped verticalSpacing="xs" aria-label={t('screens.submittedFiles.webhook.tableLabel')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('screens.submittedFiles.webhook.columns.at')}</Table.Th>
                <Table.Th>{t('screens.submittedFiles.webhook.columns.attempt')}</Table.Th>
                <Table.Th>{t('screens.submittedFiles.webhook.columns.result')}</Table.Th>
                <Table.Th>{t('screens.submittedFiles.webhook.columns.nextAttempt')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {attempts.data.attempts.map((attempt) => (
                <Table.Tr key={attempt.id}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(attempt.at)}</Table.Td>
                  <Table.Td>{attempt.attempt}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Badge color={attempt.succeeded ? 'teal' : 'red'} variant="light">
                        {attempt.statusCode ?? t('screens.submittedFiles.webhook.noAnswer')}
                      </Badge>
                      {attempt.error && <Text fz="xs">{attempt.error}</Text>}
                    </Group>
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {attempt.nextAttemptAt ? formatDateTime(attempt.nextAttemptAt) : '-'}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Group justify="flex-end">
        <Button
          leftSection={<IconSend size={16} aria-hidden />}
          disabled={!finished}
          loading={resend.isPending}
          onClick={() => resend.mutate()}
        >
          {t('screens.submittedFiles.webhook.resend')}
        </Button>
      </Group>
    </Stack>
  );
}
