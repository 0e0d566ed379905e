import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Settings, TranscriptDeletionOption, TranscriptionLanguageEntry } from '@verbatim/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../app/routes';
import { sampleSettings } from '../../test/fixtures';
import { renderRoutes } from '../../test/renderRoutes';
import { stubApi, type StubAnswer } from '../../test/stubApi';

const languagesEn: TranscriptionLanguageEntry[] = [
  { code: 'en', name: 'English', isRealtimeSupported: true },
  { code: 'de', name: 'German', isRealtimeSupported: true },
  { code: 'cy', name: 'Welsh', isRealtimeSupported: false },
  { code: 'fr', name: 'French', isRealtimeSupported: true },
  { code: 'fr-medical', name: 'French (Medical)', isRealtimeSupported: true },
];

const deletionEn: TranscriptDeletionOption[] = [
  { days: null, name: 'Never' },
  { days: 1, name: '1 day' },
  { days: 7, name: '7 days' },
  { days: 30, name: '30 days' },
  { days: 90, name: '90 days' },
  { days: 365, name: '1 year' },
];

function stub(answers: Record<string, StubAnswer> = {}) {
  return stubApi({
    '/api/v1/settings/transcript-languages': { body: languagesEn },
    '/api/v1/settings/transcript-deletion': { body: deletionEn },
    ...answers,
  });
}

function requestsTo(fetchMock: ReturnType<typeof stubApi>, method: string, path: string) {
  return fetchMock.mock.calls.filter(([input, init]) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return url.split('?')[0] === path && (init?.method ?? 'GET') === method;
  });
}

function urlOf(input: RequestInfo | URL | undefined): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : (input?.url ?? '');
}

function sentBody(init: RequestInit | undefined): unknown {
  return typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
}

async function openScreen() {
  const view = await renderRoutes(routes, { initialEntries: ['/configuration'], signedIn: true });
  await screen.findByRole('heading', { level: 1, name: 'Configuration' });
  await screen.findByRole('button', { name: 'Save settings' });
  return view;
}

const field = (name: RegExp) => screen.getByRole('textbox', { name });

async function choose(label: RegExp, option: string) {
  await userEvent.click(field(label));
  // The dropdown's opening transition keeps it display: none in jsdom.
  await userEvent.click(await screen.findByRole('option', { name: option, hidden: true }));
}

beforeEach(() => {
  document.documentElement.lang = 'en';
});

describe('configuration screen', () => {
  it('shows each saved setting in its control, the languages from the server marked when not live', async () => {
    const fetchMock = stub({
      '/api/v1/settings': {
        body: {
          ...sampleSettings,
          transcripts: { language: 'fr-medical', deletionAfterDays: 30, diarize: false },
          recordingExtension: 'wav',
        } satisfies Settings,
      },
    });
    await openScreen();
    await waitFor(() => expect(field(/^Default transcription language/)).toHaveValue('French (Medical)'));
    expect(field(/^Interface language/)).toHaveValue('English');
    await waitFor(() => expect(field(/^Delete transcripts automatically after/)).toHaveValue('30 days'));
    expect(field(/^Recording format/)).toHaveValue('WAV (uncompressed, large)');
    expect(screen.getByRole('button', { name: 'Save settings' })).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Configuration' })).toHaveAttribute('aria-current', 'page');

    await userEvent.click(field(/^Default transcription language/));
    expect(
      await screen.findByRole('option', { name: 'Welsh (files only, not live)', hidden: true }),
    ).toBeInTheDocument();
    const [languagesRequest] = requestsTo(fetchMock, 'GET', '/api/v1/settings/transcript-languages');
    expect(urlOf(languagesRequest?.[0])).toContain('locale=en');
  });

  it('saves only what changed with the settings calls, says "Settings updated" and switches the interface language at once', async () => {
    const saved: Settings = {
      ...sampleSettings,
      language: 'fr',
      transcripts: { language: 'de', deletionAfterDays: 7, diarize: false },
    };
    const fetchMock = stub({
      'PUT /api/v1/settings': { body: saved },
      'PUT /api/v1/settings/recording-extension': { body: { ...saved, recordingExtension: 'webm' } },
    });
    await openScreen();
    await waitFor(() => expect(field(/^Delete transcripts automatically after/)).toHaveValue('Never'));

    await choose(/^Interface language/, 'Français');
    await choose(/^Default transcription language/, 'German');
    await choose(/^Delete transcripts automatically after/, '7 days');
    await choose(/^Recording format/, 'WebM Opus');
    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }));

    // The toast speaks the language just chosen; the console switched without a reload.
    expect(await screen.findByText('Paramètres mis à jour')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Transcriptions' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Premiers pas' })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('fr');

    const puts = requestsTo(fetchMock, 'PUT', '/api/v1/settings');
    expect(puts.map(([, init]) => sentBody(init))).toEqual([
      { language: 'fr', transcripts: { language: 'de', deletionAfterDays: 7 } },
    ]);
    const extension = requestsTo(fetchMock, 'PUT', '/api/v1/settings/recording-extension');
    expect(extension.map(([, init]) => sentBody(init))).toEqual([{ extension: 'webm' }]);
    // The lists are fetched again, named in French.
    await waitFor(() =>
      expect(
        requestsTo(fetchMock, 'GET', '/api/v1/settings/transcript-languages').some(([input]) =>
          urlOf(input).includes('locale=fr'),
        ),
      ).toBe(true),
    );
    expect(screen.getByRole('button', { name: 'Enregistrer les paramètres' })).toBeDisabled();
  });

  it('turns speaker diarization of uploads on by default with its switch, sending only that change', async () => {
    const fetchMock = stub({
      'PUT /api/v1/settings': {
        body: { ...sampleSettings, transcripts: { ...sampleSettings.transcripts, diarize: true } },
      },
    });
    await openScreen();
    const toggle = screen.getByRole('switch', { name: /^Tell who speaks when in uploaded files/ });
    expect(toggle).not.toBeChecked();
    await userEvent.click(toggle);
    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Settings updated')).toBeInTheDocument();
    const puts = requestsTo(fetchMock, 'PUT', '/api/v1/settings');
    expect(puts.map(([, init]) => sentBody(init))).toEqual([{ transcripts: { diarize: true } }]);
    expect(screen.getByRole('switch', { name: /^Tell who speaks when in uploaded files/ })).toBeChecked();
  });

  it('only the recording format changed: one call to its own route, none to PUT /settings', async () => {
    const fetchMock = stub({
      'PUT /api/v1/settings/recording-extension': { body: { ...sampleSettings, recordingExtension: 'flac' } },
    });
    await openScreen();
    await choose(/^Recording format/, 'FLAC (lossless)');
    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Settings updated')).toBeInTheDocument();
    expect(requestsTo(fetchMock, 'PUT', '/api/v1/settings')).toHaveLength(0);
    expect(requestsTo(fetchMock, 'PUT', '/api/v1/settings/recording-extension')).toHaveLength(1);
  });

  it('a refused change shows "Settings update failed", the message under its field, and keeps the interface language', async () => {
    stub({
      'PUT /api/v1/settings': {
        status: 400,
        body: {
          code: 'VALIDATION_FAILED',
          message: 'The language "de" is not one the installed speech models transcribe.',
          details: [{ location: 'body', path: ['transcripts', 'language'], message: 'Invalid language' }],
        },
      },
    });
    await openScreen();
    await choose(/^Interface language/, 'Français');
    await choose(/^Default transcription language/, 'German');
    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }));

    expect(await screen.findByText('Settings update failed')).toBeInTheDocument();
    expect(screen.getByText('Invalid language')).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('en');
    expect(field(/^Default transcription language/)).toHaveValue('German');
  });

  it('says when the server has no speech model yet, and keeps the saved language visible', async () => {
    stub({
      '/api/v1/settings/transcript-languages': { body: [] },
      '/api/v1/settings': {
        body: {
          ...sampleSettings,
          transcripts: { language: 'nl', deletionAfterDays: null, diarize: false },
        } satisfies Settings,
      },
    });
    await openScreen();
    expect(await screen.findByText(/No speech model is installed on the server yet/)).toBeInTheDocument();
    expect(field(/^Default transcription language/)).toHaveValue('nl');
  });
});
