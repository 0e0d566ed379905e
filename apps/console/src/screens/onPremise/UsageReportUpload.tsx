import { Alert, Button, Card, FileButton, Stack, Text, Title } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { usageReportSchema, type UsageReport } from '@verbatim/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hoursAndMinutes } from './licenceDuration';
import { licencesQuery, uploadUsageReport } from './onPremiseApi';

function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsText(file);
  });
}

/** Reads a report file; null when it is not one `verbatim licenses report` wrote. */
async function readReport(file: File): Promise<UsageReport | null> {
  try {
    const parsed = usageReportSchema.safeParse(JSON.parse(await readText(file)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Issue 18 §6: an air-gapped installation's usage, carried as the file `verbatim licenses report`
 * writes; each batch is counted once, however many times the file is uploaded.
 */
export function UsageReportUpload() {
  const { t } = useTranslation();
  const headingId = useId();
  const queryClient = useQueryClient();
  const [notAReport, setNotAReport] = useState(false);
  const upload = useMutation({
    mutationFn: uploadUsageReport,
    meta: { successMessage: 'toast.usageReportUploaded', errorMessage: 'toast.usageReportUploadFailed' },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: licencesQuery.queryKey }),
  });

  const choose = async (file: File | null) => {
    if (!file) return;
    upload.reset();
    const report = await readReport(file);
    setNotAReport(report === null);
    if (report) upload.mutate(report);
  };

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="sm" align="flex-start">
        <Title order={2} fz="lg" id={headingId}>
          {t('screens.onPremise.upload.title')}
        </Title>
        <Text fz="sm" c="dimmed">
          {t('screens.onPremise.upload.text')}
        </Text>
        <FileButton onChange={(file) => void choose(file)} accept="application/json,.json">
          {(props) => (
            <Button {...props} leftSection={<IconUpload size={16} aria-hidden />} loading={upload.isPending}>
              {t('screens.onPremise.upload.button')}
            </Button>
          )}
        </FileButton>
        {notAReport && (
          <Alert color="red" variant="light" role="alert">
            {t('screens.onPremise.upload.notAReport')}
          </Alert>
        )}
        {upload.data && (
          <Alert color="teal" variant="light" role="status">
            {t('screens.onPremise.upload.result', {
              counted: upload.data.batchesCounted,
              skipped: upload.data.batchesSkipped,
              duration: t('screens.onPremise.duration', hoursAndMinutes(upload.data.secondsCounted)),
            })}
          </Alert>
        )}
      </Stack>
    </Card>
  );
}
