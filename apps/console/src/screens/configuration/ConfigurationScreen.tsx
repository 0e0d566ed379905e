import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Card, Group, Loader, Select, Stack, Switch, Text, Title } from '@mantine/core';
import { IconDeviceFloppy, IconFileText, IconLanguage, IconMicrophone } from '@tabler/icons-react';
import { recordingExtensions, type Settings, type TranscriptionLanguageEntry } from '@verbatim/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useId } from 'react';
import { Controller, type FieldPath, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/ApiRequestError';
import { QueryContent } from '../../chrome/QueryContent';
import { currentLanguage } from '../../i18n/createI18n';
import { supportedLanguages } from '../../i18n/resources';
import { settingsQuery, updateSettings } from '../../settings/settingsApi';
import { deletionOptionsQuery, transcriptLanguagesQuery, updateRecordingExtension } from './configurationApi';
import {
  changesBetween,
  type ConfigurationFormValues,
  configurationFormSchema,
  deletionValue,
  formValuesOf,
} from './configurationFormSchema';

/** /configuration (spec §2): interface language, transcript settings, recording format. */
export function ConfigurationScreen() {
  const { t } = useTranslation();
  const settings = useQuery(settingsQuery);
  return (
    <Stack gap="xl" py="md" maw={760}>
      <Stack gap="xs">
        <Title order={1}>{t('screens.configuration.title')}</Title>
        <Text c="dimmed">{t('screens.configuration.intro')}</Text>
      </Stack>
      <QueryContent query={settings} failedText={t('screens.configuration.loadFailed')}>
        {(data) => <ConfigurationForm settings={data} />}
      </QueryContent>
    </Stack>
  );
}

/** Where the server puts a refused field (VALIDATION_FAILED details), and the form field it is. */
const fieldOfServerPath: Record<string, FieldPath<ConfigurationFormValues>> = {
  language: 'language',
  'transcripts.language': 'transcriptLanguage',
  'transcripts.deletionAfterDays': 'deletion',
  'transcripts.diarize': 'diarize',
  extension: 'recordingExtension',
};

function ConfigurationForm({ settings }: { settings: Settings }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const locale = currentLanguage(i18n);
  const languages = useQuery(transcriptLanguagesQuery(locale));
  const deletionOptions = useQuery(deletionOptionsQuery(locale));
  const { control, handleSubmit, formState, reset, setError } = useForm<ConfigurationFormValues>({
    resolver: zodResolver(configurationFormSchema),
    // A change saved elsewhere (the header's language switch) shows here without losing edits.
    values: formValuesOf(settings),
    resetOptions: { keepDirtyValues: true },
  });

  const save = useMutation({
    mutationFn: async (values: ConfigurationFormValues) => {
      const changes = changesBetween(settings, values);
      let saved = settings;
      if (changes.settings) {
        saved = await updateSettings(changes.settings);
        // Spec §4: the interface follows the saved language at once, and the toast speaks it.
        if (saved.language !== currentLanguage(i18n)) await i18n.changeLanguage(saved.language);
      }
      if (changes.recordingExtension !== undefined) {
        saved = await updateRecordingExtension(changes.recordingExtension);
      }
      return saved;
    },
    meta: { successMessage: 'toast.settingsUpdated', errorMessage: 'toast.settingsUpdateFailed' },
    onSuccess: (saved) => {
      queryClient.setQueryData(settingsQuery.queryKey, saved);
      reset(formValuesOf(saved));
    },
    onError: (error) => {
      // Part of the changes may have been saved before the failure.
      void queryClient.invalidateQueries({ queryKey: settingsQuery.queryKey, exact: true });
      if (!(error instanceof ApiRequestError) || error.code !== 'VALIDATION_FAILED') return;
      for (const issue of error.details ?? []) {
        const field = fieldOfServerPath[issue.path.join('.')];
        if (field) setError(field, { type: 'server', message: issue.message });
      }
    },
  });

  const errorText = (field: FieldPath<ConfigurationFormValues>) =>
    formState.errors[field] ? t(`screens.configuration.invalid.${field}`) : undefined;

  const languageOptions = transcriptLanguageOptions(
    languages.data ?? [],
    settings.transcripts.language,
    (entry) =>
      entry.isRealtimeSupported ? entry.name : t('screens.configuration.filesOnly', { name: entry.name }),
  );

  return (
    <form onSubmit={(event) => void handleSubmit((values) => save.mutate(values))(event)} noValidate>
      <Stack gap="lg">
        <SettingsSection
          icon={<IconLanguage size={20} aria-hidden />}
          title={t('screens.configuration.interfaceTitle')}
        >
          <Controller
            control={control}
            name="language"
            render={({ field }) => (
              <Select
                label={t('screens.configuration.interfaceLanguage')}
                description={t('screens.configuration.interfaceLanguageHint')}
                data={supportedLanguages.map((language) => ({ value: language.code, label: language.name }))}
                allowDeselect={false}
                value={field.value}
                onChange={(value) => value !== null && field.onChange(value)}
                onBlur={field.onBlur}
                error={errorText('language')}
              />
            )}
          />
        </SettingsSection>

        <SettingsSection
          icon={<IconFileText size={20} aria-hidden />}
          title={t('screens.configuration.transcriptsTitle')}
        >
          <Controller
            control={control}
            name="transcriptLanguage"
            render={({ field }) => (
              <Select
                label={t('screens.configuration.transcriptLanguage')}
                description={t('screens.configuration.transcriptLanguageHint')}
                data={languageOptions}
                searchable
                nothingFoundMessage={t('screens.configuration.noLanguageFound')}
                allowDeselect={false}
                disabled={languages.isPending}
                rightSection={languages.isPending ? <Loader size="xs" aria-hidden /> : undefined}
                value={field.value}
                onChange={(value) => value !== null && field.onChange(value)}
                onBlur={field.onBlur}
                error={errorText('transcriptLanguage')}
              />
            )}
          />
          {languages.isError && (
            <Alert color="red" variant="light" role="alert">
              {t('screens.configuration.languagesFailed')}
            </Alert>
          )}
          {languages.isSuccess && languages.data.length === 0 && (
            <Alert color="yellow" variant="light" role="status">
              {t('screens.configuration.noModel')}
            </Alert>
          )}
          <Controller
            control={control}
            name="deletion"
            render={({ field }) => (
              <Select
                label={t('screens.configuration.deletion')}
                description={t('screens.configuration.deletionHint')}
                data={(deletionOptions.data ?? []).map((option) => ({
                  value: deletionValue(option.days),
                  label: option.name,
                }))}
                allowDeselect={false}
                disabled={deletionOptions.isPending}
                value={field.value}
                onChange={(value) => value !== null && field.onChange(value)}
                onBlur={field.onBlur}
                error={
                  errorText('deletion') ??
                  (deletionOptions.isError ? t('screens.configuration.deletionFailed') : undefined)
                }
              />
            )}
          />
          <Controller
            control={control}
            name="diarize"
            render={({ field }) => (
              <Switch
                label={t('screens.configuration.diarize')}
                description={t('screens.configuration.diarizeHint')}
                checked={field.value}
                onChange={(event) => field.onChange(event.currentTarget.checked)}
                onBlur={field.onBlur}
                error={errorText('diarize')}
              />
            )}
          />
        </SettingsSection>

        <SettingsSection
          icon={<IconMicrophone size={20} aria-hidden />}
          title={t('screens.configuration.recordingsTitle')}
        >
          <Controller
            control={control}
            name="recordingExtension"
            render={({ field }) => (
              <Select
                label={t('screens.configuration.recordingFormat')}
                description={t('screens.configuration.recordingFormatHint')}
                data={recordingExtensions.map((format) => ({
                  value: format,
                  label: t(`screens.configuration.formats.${format}`),
                }))}
                allowDeselect={false}
                value={field.value}
                onChange={(value) => value !== null && field.onChange(value)}
                onBlur={field.onBlur}
                error={errorText('recordingExtension')}
              />
            )}
          />
        </SettingsSection>

        <Group justify="flex-end">
          <Button
            type="submit"
            leftSection={<IconDeviceFloppy size={16} aria-hidden />}
            loading={save.isPending}
            disabled={!formState.isDirty}
          >
            {t('screens.configuration.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function SettingsSection({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="md">
        <Group gap="xs" wrap="nowrap">
          {icon}
          <Title order={2} fz="lg" id={headingId}>
            {title}
          </Title>
        </Group>
        {children}
      </Stack>
    </Card>
  );
}

/**
 * The languages of the installed models; a saved language they no longer serve stays visible
 * (by its code) rather than showing an empty field.
 */
function transcriptLanguageOptions(
  entries: readonly TranscriptionLanguageEntry[],
  saved: string,
  label: (entry: TranscriptionLanguageEntry) => string,
) {
  const options = entries.map((entry) => ({ value: entry.code, label: label(entry) }));
  return options.some((option) => option.value === saved)
    ? options
    : [{ value: saved, label: saved }, ...options];
}
