import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Button,
  FileInput,
  Group,
  Loader,
  Modal,
  Progress,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { IconCloudUpload, IconFileMusic, IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { RecordingUploadState, SendToCrmRequest } from '@verbatim/contracts';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/ApiRequestError';
import { useValidationText } from '../../forms/useValidationText';
import { currentLanguage } from '../../i18n/createI18n';
import { notify } from '../../notifications/notify';
import { settingsQuery } from '../../settings/settingsApi';
import { transcriptLanguagesQuery } from '../configuration/configurationApi';
import { CrmTargetFields } from '../integrations/CrmTargetFields';
import { integrationsQuery } from '../integrations/integrationsApi';
import { filesQueryKey } from './filesApi';
import type { UploadProgress } from './resumableUpload';
import {
  mediaTypeOf,
  type UploadFormInput,
  type UploadFormValues,
  uploadFormSchema,
} from './uploadFormSchema';
import { type FileUploadState, useFileUpload } from './useFileUpload';

export interface UploadFileModalProps {
  opened: boolean;
  onClose: () => void;
  /** After the last byte arrived and the server queued the transcription; closes the modal. */
  onUploaded: (upload: RecordingUploadState) => void;
}

/** Spec §8: what the modal says when the server refuses the upload. */
function uploadFailureKey(error: unknown) {
  if (error instanceof ApiRequestError && error.code === 'FILE_ALREADY_EXISTS') {
    return 'screens.submittedFiles.upload.alreadyExists' as const;
  }
  if (error instanceof ApiRequestError && error.code === 'STORAGE_LIMIT_REACHED') {
    return 'screens.submittedFiles.upload.storageLimitReached' as const;
  }
  return 'screens.submittedFiles.upload.failed' as const;
}

/** Spec §2 Modals, upload file: the recording, its language and an optional webhook URL; a resumable upload. */
export function UploadFileModal({ opened, onClose, onUploaded }: UploadFileModalProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const upload = useFileUpload({
    onDone: (done) => {
      void queryClient.invalidateQueries({ queryKey: filesQueryKey });
      notify.success({ title: t('toast.successTitle'), message: t('toast.fileUploaded') });
      upload.reset();
      onUploaded(done);
    },
  });
  const close = () => {
    upload.reset();
    onClose();
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('screens.submittedFiles.upload.title')}
      centered
      size="lg"
      // A click beside the modal must not stop an upload by accident.
      closeOnClickOutside={upload.state.status !== 'running'}
    >
      {opened && <UploadForm upload={upload} onCancel={close} />}
    </Modal>
  );
}

function UploadForm({
  upload,
  onCancel,
}: {
  upload: ReturnType<typeof useFileUpload>;
  onCancel: () => void;
}) {
  const { t, i18n } = useTranslation();
  const validationText = useValidationText();
  const settings = useQuery(settingsQuery);
  const languages = useQuery(transcriptLanguagesQuery(currentLanguage(i18n)));
  const { control, handleSubmit, formState, register, setValue, getValues, setError } = useForm<
    UploadFormInput,
    unknown,
    UploadFormValues
  >({
    resolver: zodResolver(uploadFormSchema),
    defaultValues: { file: null, languageCode: '', callbackUrl: '' },
  });
  const { state } = upload;
  const busy = state.status === 'running' || state.status === 'paused';
  const integrations = useQuery(integrationsQuery);
  const connections = integrations.data?.integrations ?? [];
  const [crmWanted, setCrmWanted] = useState(false);
  const [crmTarget, setCrmTarget] = useState<SendToCrmRequest | null>(null);
  const [crmMissing, setCrmMissing] = useState(false);

  // Spec §3 Settings: the account's transcription language is the starting choice.
  const defaultLanguage = settings.data?.transcripts.language;
  useEffect(() => {
    if (defaultLanguage && getValues('languageCode') === '') setValue('languageCode', defaultLanguage);
  }, [defaultLanguage, getValues, setValue]);

  // The server's field refusals (Invalid file / language / url) go under their fields.
  useEffect(() => {
    if (state.status !== 'failed' || !(state.error instanceof ApiRequestError)) return;
    if (state.error.code !== 'VALIDATION_FAILED') return;
    for (const issue of state.error.details ?? []) {
      const field =
        { fileName: 'file', size: 'file', type: 'file', sha1: 'file' }[String(issue.path[0])] ??
        issue.path[0];
      if (field === 'file' || field === 'languageCode' || field === 'callbackUrl') {
        setError(field, { type: 'server', message: issue.message });
      }
    }
  }, [state, setError]);

  const submit = handleSubmit((values) => {
    if (!values.file) return;
    const crm = crmWanted && connections.length > 0 ? crmTarget : undefined;
    setCrmMissing(crm === null);
    if (crm === null) return;
    const file =
      values.file.type === ''
        ? new File([values.file], values.file.name, {
            type: mediaTypeOf(values.file),
            lastModified: values.file.lastModified,
          })
        : values.file;
    upload.start({
      file,
      languageCode: values.languageCode,
      callbackUrl: values.callbackUrl,
      ...(crm ? { crm } : {}),
    });
  });

  const languageOptions = (languages.data ?? []).map((entry) => ({ value: entry.code, label: entry.name }));
  if (defaultLanguage && !languageOptions.some((option) => option.value === defaultLanguage)) {
    languageOptions.unshift({ value: defaultLanguage, label: defaultLanguage });
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        <Controller
          control={control}
          name="file"
          render={({ field }) => (
            <FileInput
              label={t('screens.submittedFiles.upload.file')}
              description={t('screens.submittedFiles.upload.fileHint')}
              placeholder={t('screens.submittedFiles.upload.filePlaceholder')}
              accept="audio/*,video/*"
              clearable
              leftSection={<IconFileMusic size={18} aria-hidden />}
              value={field.value ?? null}
              onChange={(file) => {
                field.onChange(file);
                upload.reset();
              }}
              onBlur={field.onBlur}
              disabled={busy}
              withAsterisk
              error={validationText(formState.errors.file?.message)}
            />
          )}
        />
        <Controller
          control={control}
          name="languageCode"
          render={({ field }) => (
            <Select
              label={t('screens.submittedFiles.upload.language')}
              data={languageOptions}
              searchable
              nothingFoundMessage={t('screens.submittedFiles.upload.noLanguageFound')}
              allowDeselect={false}
              rightSection={languages.isPending ? <Loader size="xs" aria-hidden /> : undefined}
              value={field.value === '' ? null : field.value}
              onChange={(value) => field.onChange(value ?? '')}
              onBlur={field.onBlur}
              disabled={busy}
              withAsterisk
              error={validationText(formState.errors.languageCode?.message)}
            />
          )}
        />
        <TextInput
          label={t('screens.submittedFiles.upload.webhookUrl')}
          description={t('screens.submittedFiles.upload.webhookUrlHint')}
          placeholder="https://example.com/webhooks/transcripts"
          type="url"
          inputMode="url"
          autoComplete="url"
          disabled={busy}
          error={validationText(formState.errors.callbackUrl?.message)}
          {...register('callbackUrl')}
        />
        {connections.length > 0 && (
          <Stack gap="sm">
            <Switch
              label={t('screens.integrations.send.whenDone')}
              description={t('screens.integrations.send.whenDoneHint')}
              checked={crmWanted}
              onChange={(event) => setCrmWanted(event.currentTarget.checked)}
              disabled={busy}
            />
            {crmWanted && (
              <CrmTargetFields
                integrations={connections}
                defaultSubject={t('screens.integrations.send.defaultSubject', {
                  name: getValues('file')?.name ?? '',
                })}
                onChange={setCrmTarget}
                disabled={busy}
              />
            )}
            {crmWanted && crmMissing && !crmTarget && (
              <Text c="red" fz="sm" role="alert">
                {t('screens.integrations.send.pickContact')}
              </Text>
            )}
          </Stack>
        )}

        <UploadStatus state={state} />

        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            {t('screens.submittedFiles.upload.cancel')}
          </Button>
          {state.status === 'running' && (
            <Button
              variant="light"
              leftSection={<IconPlayerPause size={16} aria-hidden />}
              onClick={upload.pause}
            >
              {t('screens.submittedFiles.upload.pause')}
            </Button>
          )}
          {state.status === 'paused' && (
            <Button leftSection={<IconPlayerPlay size={16} aria-hidden />} onClick={upload.resume}>
              {t('screens.submittedFiles.upload.resume')}
            </Button>
          )}
          {!busy && (
            <Button type="submit" leftSection={<IconCloudUpload size={16} aria-hidden />}>
              {state.status === 'failed'
                ? t('screens.submittedFiles.upload.retry')
                : t('screens.submittedFiles.upload.submit')}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}

function percentOf(progress: UploadProgress): number {
  return progress.totalBytes === 0 ? 0 : Math.floor((progress.doneBytes / progress.totalBytes) * 100);
}

function UploadStatus({ state }: { state: FileUploadState }) {
  const { t, i18n } = useTranslation();
  const megabytes = (bytes: number) =>
    new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(bytes / 1_000_000);

  if (state.status === 'failed') {
    const key = uploadFailureKey(state.error);
    // Field refusals show under their fields; the alert still says the upload did not happen.
    return (
      <Alert color="red" variant="light" role="alert">
        {t(key)}
      </Alert>
    );
  }
  if (state.status !== 'running' && state.status !== 'paused') return null;
  const { progress } = state;
  const percent = percentOf(progress);
  const label =
    progress.phase === 'hashing'
      ? t('screens.submittedFiles.upload.preparing', { percent })
      : t('screens.submittedFiles.upload.progress', {
          percent,
          done: megabytes(progress.doneBytes),
          total: megabytes(progress.totalBytes),
        });
  return (
    <Stack gap={6}>
      <Progress
        value={percent}
        size="lg"
        animated={state.status === 'running'}
        aria-label={t('screens.submittedFiles.upload.progressLabel')}
      />
      <Text fz="sm" c="dimmed" role="status" aria-live="polite">
        {state.status === 'paused' ? t('screens.submittedFiles.upload.paused', { label }) : label}
      </Text>
    </Stack>
  );
}
