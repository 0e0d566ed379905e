import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FileTranscript, SubmittedFile } from '@verbatim/contracts';
import { describe, expect, it } from 'vitest';

// The page loads the file, then its transcript: two answers in a row on a machine that may be busy.
import { routes } from '../../app/routes';
import { renderRoutes } from '../../test/renderRoutes';
import { stubApi } from '../../test/stubApi';

const file: SubmittedFile = {
  id: 'fil_1',
  creationDate: new Date(2026, 10, 23, 9, 5, 7).toISOString(),
  fileName: 'call.wav',
  languageCode: 'en',
  detectedLanguage: 'en',
  duration: 5,
  callbackUrl: null,
  size: 1000,
  uploadedSize: 1000,
  isCompleted: true,
  transcriptStatus: 'done',
  progress: 100,
  failureReason: null,
  webhookStatus: 'none',
};

const transcript: FileTranscript = {
  id: 'fil_1',
  language: 'en',
  duration: 5,
  text: 'Are you coming? Yes.',
  segments: [
    {
      id: 0,
      start: 0.4,
      end: 2.1,
      text: 'Are you coming?',
      speaker: 'S1',
      words: [
        { start: 0.4, end: 0.6, text: 'Are', confidence: 0.97, speaker: 'S1' },
        { start: 0.6, end: 0.8, text: 'you', confidence: 0.99, speaker: 'S1' },
        { start: 0.8, end: 2.1, text: 'coming?', confidence: 0.31, speaker: 'S1' },
      ],
    },
    {
      id: 1,
      start: 2.6,
      end: 3.0,
      text: 'Yes.',
      speaker: 'S2',
      words: [{ start: 2.6, end: 3.0, text: 'Yes.', confidence: 0.95, speaker: 'S2' }],
    },
  ],
  speakers: [
    { id: 'S1', name: 'S1' },
    { id: 'S2', name: 'S2' },
  ],
  speakerTurns: [
    { speaker: 'S1', start: 0.4, end: 2.1 },
    { speaker: 'S2', start: 2.6, end: 3.0 },
  ],
};

function stubTranscriptApi() {
  return stubApi({
    '/api/v1/files/third-party/fil_1': { body: file },
    '/api/v1/files/third-party/fil_1/transcript': { body: transcript },
    'POST /api/v1/files/third-party/fil_1/audio-url': {
      body: {
        url: '/api/v1/files/third-party/fil_1/audio?x=1',
        expiresAt: new Date(Date.now() + 600_000).toISOString(),
      },
    },
    'PUT /api/v1/files/third-party/fil_1/speakers': {
      body: {
        speakers: [
          { id: 'S1', name: 'Anna' },
          { id: 'S2', name: 'S2' },
        ],
      },
    },
  });
}

describe('transcript page', () => {
  it('shows the turns with their speakers and times, marks a doubtful word with the threshold', async () => {
    stubTranscriptApi();
    await renderRoutes(routes, { initialEntries: ['/submitted-files/fil_1'], signedIn: true });

    const region = await screen.findByRole('region', { name: 'Transcript' }, { timeout: 10_000 });
    expect(await screen.findByRole('heading', { level: 1, name: 'call.wav' })).toBeInTheDocument();
    expect(within(region).getByRole('button', { name: 'Play from 0:00' })).toBeInTheDocument();
    expect(within(region).getByRole('button', { name: 'Play from 0:02' })).toBeInTheDocument();
    expect(within(region).getByText('coming?')).toHaveAttribute(
      'title',
      'Confidence 31% (words under 60% are marked)',
    );
    expect(within(region).getByText('Are')).not.toHaveAttribute('title');
  });

  it('saves a new speaker name and shows it in the turns', async () => {
    const fetchMock = stubTranscriptApi();
    await renderRoutes(routes, { initialEntries: ['/submitted-files/fil_1'], signedIn: true });

    const name = await screen.findByRole('textbox', { name: 'Name of S1' }, { timeout: 10_000 });
    await userEvent.clear(name);
    await userEvent.type(name, 'Anna');
    await userEvent.click(screen.getByRole('button', { name: 'Save names' }));

    await waitFor(() =>
      expect(
        within(screen.getByRole('region', { name: 'Transcript' })).getByText('Anna'),
      ).toBeInTheDocument(),
    );
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    const body = put?.[1]?.body;
    expect(typeof body === 'string' ? JSON.parse(body) : body).toEqual({
      speakers: [{ id: 'S1', name: 'Anna' }],
    });
  });
});
