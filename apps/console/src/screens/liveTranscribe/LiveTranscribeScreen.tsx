import {
  Alert,
  Badge,
  Button,
  Card,
  Divider,
  FileInput,
  Group,
  Loader,
  Select,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import {
  IconDownload,
  IconMicrophone,
  IconPlayerPlay,
  IconPlayerStop,
  IconRefresh,
  IconSend,
  IconUpload,
} from '@tabler/icons-react';
import type { LiveCloseReason } from '@verbatim/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyValueButton } from '../../clipboard/CopyValueButton';
import { currentLanguage } from '../../i18n/createI18n';
import { settingsQuery } from '../../settings/settingsApi';
import { saveBlob } from '../billing/billingApi';
import { transcriptLanguagesQuery } from '../configuration/configurationApi';
import { integrationsQuery } from '../integrations/integrationsApi';
import { SendToCrmModal } from '../integrations/SendToCrmModal';
import { formatElapsed } from './formatElapsed';
import { inputsEditable, type LiveStatus } from './liveSessionMachine';
import { isValidLiveFile, liveFileAccept, type LiveFormField, liveFormProblems } from './liveFormSchema';
import { TranscriptArea } from './TranscriptArea';
import { transcriptText } from './transcriptSegments';
import { useLiveSession } from './useLiveSession';
import { effectiveMicrophone, useMicrophones } from './useMicrophones';

/** Spec §2: the only format offered after a session, and the file Download saves. */
const plainTextFormat = 'text/plain';
const downloadFileName = 'transcribe.txt';

/** /live-transcribe (spec §2 Live transcribe, §4 Live session states, §5 Live form). */
export function LiveTranscribeScreen() {
  const { t, i18n } = useTranslation();
  const locale = currentLanguage(i18n);
  const settings = useQuery(settingsQuery);
  const languages = useQuery(transcriptLanguagesQuery(locale));

  const [chosenLanguage, setChosenLanguage] = useState<string | null>(null);
  const [endpoints, setEndpoints] = useState(true);
  const [file, setFile] = useState<File | null>(null);
  const [problems, setProblems] = useState<Set<LiveFormField>>(new Set());
  const [sendingToCrm, setSendingToCrm] = useState(false);
  const integrations = useQuery(integrationsQuery);
  const hasCrm = (integrations.data?.integrations.length ?? 0) > 0;

  const live = useLiveSession({ onRecordingRefused: () => microphones.markDenied() });
  const microphones = useMicrophones(live.permissionDenied);
  const { state } = live;
  const editable = inputsEditable(state.status);
  const micId = effectiveMicrophone(microphones.devices, state.micId);

  // Spec §2: only languages with realtime support; the account's default is preselected.
  const realtimeLanguages = (languages.data ?? []).filter((language) => language.isRealtimeSupported);
  const defaultLanguage = settings.data?.transcripts.language;
  const language =
    chosenLanguage ??
    (realtimeLanguages.some((entry) => entry.code === defaultLanguage) ? (defaultLanguage ?? null) : null);

  const text = transcriptText(live.segments);
  const micBlocked = state.status === 'blocked' || microphones.permission === 'denied';
  const fileProblem = problems.has('file') || (file !== null && !isValidLiveFile(file));

  const start = () => {
    const found = liveFormProblems({ language: language ?? '', mic: micId, endpoints, file });
    setProblems(found);
    if (found.size > 0 || !language) return;
    void live.start({ languageCode: language, endpoints, micId, file });
  };

  const reset = () => {
    // Spec §4: a file used by the session is cleared with the text.
    if (state.source === 'file') setFile(null);
    setProblems(new Set());
    live.reset();
  };

  const clearProblem = (field: LiveFormField) =>
    setProblems((current) => {
      const next = new Set(current);
      next.delete(field);
      return next;
    });

  return (
    <Stack gap="xl" py="md" maw={860}>
      <Stack gap="xs">
        <Title order={1}>{t('screens.liveTranscribe.title')}</Title>
        <Text c="dimmed">{t('screens.liveTranscribe.intro')}</Text>
      </Stack>

      {microphones.permission === 'denied' && (
        <Alert color="red" variant="light" role="alert" icon={<IconMicrophone size={18} aria-hidden />}>
          {t('screens.liveTranscribe.permissionDenied')}
        </Alert>
      )}

      <Card withBorder radius="md" padding="lg">
        <Stack gap="md">
          <Select
            label={t('screens.liveTranscribe.microphone')}
            description={t('screens.liveTranscribe.microphoneHint')}
            placeholder={t('screens.liveTranscribe.microphonePlaceholder')}
            nothingFoundMessage={t('screens.liveTranscribe.noMicrophone')}
            data={microphones.devices.map((device) => ({ value: device.deviceId, label: device.label }))}
            value={micId || null}
            allowDeselect={false}
            disabled={!editable}
            onChange={(value) => {
              if (value === null) return;
              clearProblem('mic');
              live.selectMicrophone(value);
            }}
            error={
              micBlocked
                ? t('screens.liveTranscribe.permissionBlocked')
                : problems.has('mic')
                  ? t('screens.liveTranscribe.invalid.mic')
                  : undefined
            }
          />

          <Divider label={t('screens.liveTranscribe.or')} labelPosition="center" />

          <FileInput
            label={t('screens.liveTranscribe.file')}
            description={t('screens.liveTranscribe.fileHint')}
            placeholder={t('screens.liveTranscribe.filePlaceholder')}
            accept={liveFileAccept}
            clearable
            clearButtonProps={{ 'aria-label': t('screens.liveTranscribe.clearFile') }}
            value={file}
            disabled={!editable}
            onChange={(picked) => {
              clearProblem('file');
              clearProblem('mic');
              setFile(picked);
            }}
            error={fileProblem ? t('screens.liveTranscribe.invalid.file') : undefined}
          />

          <Select
            label={t('screens.liveTranscribe.language')}
            placeholder={t('screens.liveTranscribe.languagePlaceholder')}
            data={realtimeLanguages.map((entry) => ({ value: entry.code, label: entry.name }))}
            value={language}
            searchable
            nothingFoundMessage={t('screens.liveTranscribe.noLanguageFound')}
            allowDeselect={false}
            disabled={!editable || languages.isPending}
            rightSection={languages.isPending ? <Loader size="xs" aria-hidden /> : undefined}
            onChange={(value) => {
              if (value === null) return;
              clearProblem('language');
              setChosenLanguage(value);
            }}
            error={
              problems.has('language')
                ? t('screens.liveTranscribe.invalid.language')
                : languages.isError
                  ? t('screens.liveTranscribe.languagesFailed')
                  : undefined
            }
          />
          {languages.isSuccess && realtimeLanguages.length === 0 && (
            <Alert color="yellow" variant="light" role="status">
              {t('screens.liveTranscribe.noModel')}
            </Alert>
          )}

          <Switch
            label={t('screens.liveTranscribe.endpoints')}
            description={t('screens.liveTranscribe.endpointsHint')}
            checked={endpoints}
            disabled={!editable}
            onChange={(event) => setEndpoints(event.currentTarget.checked)}
          />

          <SessionControls
            status={state.status}
            hasFile={file !== null}
            elapsedSeconds={state.elapsedSeconds}
            onStart={start}
            onStop={() => void live.stop()}
            onReset={reset}
          />
          <SessionStatus status={state.status} finishing={state.finishing} endReason={live.endReason} />

          <TranscriptArea label={t('screens.liveTranscribe.transcript')} text={text} />

          {state.status === 'reset' && (
            <Group gap="sm" align="flex-end">
              <Select
                label={t('screens.liveTranscribe.format')}
                data={[{ value: plainTextFormat, label: t('screens.liveTranscribe.plainText') }]}
                value={plainTextFormat}
                allowDeselect={false}
                w={180}
              />
              <CopyValueButton value={text} label={t('screens.liveTranscribe.copy')} size="sm" />
              <Button
                variant="light"
                leftSection={<IconDownload size={16} aria-hidden />}
                onClick={() =>
                  saveBlob(new Blob([text], { type: 'text/plain;charset=utf-8' }), downloadFileName)
                }
              >
                {t('screens.liveTranscribe.download')}
              </Button>
              {hasCrm && (
                <Button
                  variant="light"
                  leftSection={<IconSend size={16} aria-hidden />}
                  disabled={!text.trim()}
                  onClick={() => setSendingToCrm(true)}
                >
                  {t('screens.liveTranscribe.sendToCrm')}
                </Button>
              )}
            </Group>
          )}
          <SendToCrmModal
            transcript={
              sendingToCrm && text.trim()
                ? { id: null, name: t('screens.liveTranscribe.crmTitle'), text }
                : null
            }
            onClose={() => setSendingToCrm(false)}
          />
        </Stack>
      </Card>
    </Stack>
  );
}

interface SessionControlsProps {
  status: LiveStatus;
  hasFile: boolean;
  elapsedSeconds: number;
  onStart: () => void;
  onStop: () => void;
  onReset: () => void;
}

/** Start (Upload with a file), Stop, Reset and the elapsed time (spec §2). */
function SessionControls({
  status,
  hasFile,
  elapsedSeconds,
  onStart,
  onStop,
  onReset,
}: SessionControlsProps) {
  const { t } = useTranslation();
  return (
    <Group gap="sm">
      <Button
        onClick={onStart}
        disabled={!inputsEditable(status)}
        loading={status === 'starting'}
        leftSection={
          hasFile ? <IconUpload size={16} aria-hidden /> : <IconPlayerPlay size={16} aria-hidden />
        }
      >
        {hasFile ? t('screens.liveTranscribe.upload') : t('screens.liveTranscribe.start')}
      </Button>
      <Button
        color="red"
        variant="light"
        onClick={onStop}
        disabled={status !== 'running' && status !== 'starting'}
        leftSection={<IconPlayerStop size={16} aria-hidden />}
      >
        {t('screens.liveTranscribe.stop')}
      </Button>
      <Button
        variant="default"
        onClick={onReset}
        disabled={status !== 'reset' && status !== 'error'}
        leftSection={<IconRefresh size={16} aria-hidden />}
      >
        {t('screens.liveTranscribe.reset')}
      </Button>
      <Badge
        size="lg"
        variant="light"
        color={status === 'running' ? 'red' : 'gray'}
        ff="monospace"
        aria-label={t('screens.liveTranscribe.elapsed', { time: formatElapsed(elapsedSeconds) })}
      >
        {formatElapsed(elapsedSeconds)}
      </Badge>
    </Group>
  );
}

/** Says what the session is doing, and why it ended when the server ended it. */
function SessionStatus({
  status,
  finishing,
  endReason,
}: {
  status: LiveStatus;
  finishing: boolean;
  endReason: LiveCloseReason | undefined;
}) {
  const { t } = useTranslation();
  const reasonText = endReason ? t(`apiErrors.${endReason.code}`) : undefined;
  return (
    <Stack gap="xs">
      <Text role="status" fz="sm" c="dimmed">
        {finishing
          ? t('screens.liveTranscribe.status.finishing')
          : t(`screens.liveTranscribe.status.${status}`)}
      </Text>
      {status === 'error' && (
        <Alert color="red" variant="light" role="alert">
          {reasonText ?? t('screens.liveTranscribe.failed')}
        </Alert>
      )}
      {status !== 'error' && reasonText && (
        <Alert color="orange" variant="light" role="alert">
          {t('screens.liveTranscribe.ended', { reason: reasonText })}
        </Alert>
      )}
    </Stack>
  );
}
