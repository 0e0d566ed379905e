import { Badge, Loader } from '@mantine/core';
import type { SubmittedFile, TranscriptStatus } from '@verbatim/contracts';
import { useTranslation } from 'react-i18next';

const colors: Record<TranscriptStatus, string> = {
  pending: 'gray',
  processing: 'blue',
  done: 'teal',
  processing_failed: 'red',
};

/** Spec §3 Transcript status, with the server's progress while the file is transcribed. */
export function TranscriptStatusBadge({ file }: { file: SubmittedFile }) {
  const { t } = useTranslation();
  const status = file.transcriptStatus;
  const label =
    status === 'processing'
      ? t('screens.submittedFiles.status.processingPercent', { percent: file.progress })
      : t(`screens.submittedFiles.status.${status}`);
  return (
    <Badge
      color={colors[status]}
      variant="light"
      leftSection={status === 'processing' ? <Loader size={10} color="blue" aria-hidden /> : undefined}
      // The label is short and says it all: never cut to an ellipsis.
      style={{ whiteSpace: 'nowrap', overflow: 'visible' }}
      styles={{ label: { overflow: 'visible' } }}
    >
      {label}
    </Badge>
  );
}
