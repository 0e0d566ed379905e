import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FilesPage, SubmittedFile } from '@verbatim/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../app/routes';
import '../../test/blobArrayBuffer';
import { renderRoutes } from '../../test/renderRoutes';
import { stubApi } from '../../test/stubApi';
import { pageCountOf } from './SubmittedFilesScreen';

function fileOf(overrides: Partial<SubmittedFile> = {}): SubmittedFile {
  return {
    id: 'f_1',
    creationDate: new Date(2026, 10, 23, 9, 5, 7).toISOString(),
    fileName: 'board-meeting.mp3',
    languageCode: 'en',
    detectedLanguage: 'en',
    duration: 7325.4,
    callbackUrl: 'https://hooks.example.com/transcripts',
    size: 1000,
    uploadedSize: 1000,
    isCompleted: true,
    transcriptStatus: 'done',
    progress: 100,
    failureReason: null,
    webhookStatus: 'delivered',
    ...overrides,
  };
}

const page: FilesPage = {
  list: [
    fileOf(),
    fileOf({
      id: 'f_2',
      transcriptStatus: 'processing_failed',
      failureReason: 'No speech found',
      callbackUrl: null,
      duration: 4,
    }),
    fileOf({ id: 'f_3', isCompleted: false, uploadedSize: 10, duration: null, transcriptStatus: 'pending' }),
  ],
  pagination: { next_page: 10, total: 23 },
};

const languages = [
  { code: 'en', name: 'English', isRealtimeSupported: true },
  { code: 'fr', name: 'French', isRealtimeSupported: true },
];

function fileRequests(fetchMock: ReturnType<typeof stubApi>) {
  return fetchMock.mock.calls
    .map(([url]) => url)
    .filter((url): url is string => typeof url === 'string' && url.startsWith('/api/v1/files/third-party?'));
}

async function openFiles(path = '/submitted-files') {
  const view = await renderRoutes(routes, { initialEntries: [path], signedIn: true });
  await screen.findByRole('heading', { level: 1, name: 'Submitted files' });
  return view;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

// Rendering the whole console with Mantine is slow on a busy machine.
describe('submitted files', { timeout: 20_000 }, () => {
  it("lists a page of files in the spec's columns", async () => {
    const fetchMock = stubApi({ '/api/v1/files/third-party': { body: page } });
    await openFiles();

    const table = within(await screen.findByRole('table', { name: 'Submitted files' }));
    expect(table.getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      'File ID',
      'Created At',
      'Language',
      'Duration (hh:mm:ss)',
      'Webhook URL',
      'Uploaded',
      'Transcript status',
      'Failure reason',
      'Actions',
    ]);
    const rows = table
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row));
    expect(rows).toHaveLength(3);
    const [done, failed, partial] = rows as [(typeof rows)[0], (typeof rows)[0], (typeof rows)[0]];
    expect(done.getByText('f_1')).toBeInTheDocument();
    expect(done.getByText('2026-11-23 09:05:07')).toBeInTheDocument();
    expect(done.getByText('02:02:05')).toBeInTheDocument();
    expect(done.getByText('https://hooks.example.com/transcripts')).toBeInTheDocument();
    expect(done.getByText('Yes')).toBeInTheDocument();
    expect(done.getByText('Done')).toBeInTheDocument();
    expect(failed.getByText('00:00:04')).toBeInTheDocument();
    expect(failed.getByText('Processing failed')).toBeInTheDocument();
    expect(failed.getByText('No speech found')).toBeInTheDocument();
    expect(partial.getByText('No')).toBeInTheDocument();
    expect(fileRequests(fetchMock)).toEqual(['/api/v1/files/third-party?start=0&limit=10']);
  });

  it('pages by 10, as far as the server names a next page', async () => {
    const fetchMock = stubApi({ '/api/v1/files/third-party': { body: page } });
    const { router } = await openFiles();
    await screen.findByRole('table', { name: 'Submitted files' });

    await userEvent.click(screen.getByRole('button', { name: 'Page 2' }));

    await vi.waitFor(() =>
      expect(fileRequests(fetchMock)).toEqual([
        '/api/v1/files/third-party?start=0&limit=10',
        '/api/v1/files/third-party?start=10&limit=10',
      ]),
    );
    expect(router.state.location.search).toBe('?page=2');
    expect(screen.getByRole('button', { name: 'Page 3' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Page 4' })).not.toBeInTheDocument();
  });

  it('counts pages from the total and the next page', () => {
    expect(pageCountOf(1, { next_page: null, total: 0 })).toBe(1);
    expect(pageCountOf(1, { next_page: 10, total: 11 })).toBe(2);
    expect(pageCountOf(2, { next_page: null, total: 20 })).toBe(2);
    // Files added since the total was counted: the next page still shows.
    expect(pageCountOf(3, { next_page: 30, total: 30 })).toBe(4);
  });

  it('asks again while a file is being transcribed, showing its progress, and stops once done', async () => {
    const processing = { ...page, list: [fileOf({ transcriptStatus: 'processing', progress: 42 })] };
    const finished = { ...page, list: [fileOf()] };
    let answers = 0;
    const fetchMock = stubApi();
    const stubbed = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation((input, init) => {
      if (typeof input === 'string' && input.startsWith('/api/v1/files/third-party?')) {
        answers += 1;
        return Promise.resolve(Response.json(answers === 1 ? processing : finished));
      }
      return stubbed(input, init);
    });
    await openFiles();

    expect(await screen.findByText('Processing 42%')).toBeInTheDocument();
    expect(await screen.findByText('Done', {}, { timeout: 6_000 })).toBeInTheDocument();
    const asked = fileRequests(fetchMock).length;
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    expect(fileRequests(fetchMock)).toHaveLength(asked);
  });

  it('says when there is no file yet, and offers the upload', async () => {
    stubApi({
      '/api/v1/files/third-party': { body: { list: [], pagination: { next_page: null, total: 0 } } },
    });
    await openFiles();

    expect(await screen.findByText('No files uploaded yet.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Upload your first recording' }));
    expect(await screen.findByRole('dialog', { name: 'Upload file' })).toBeInTheDocument();
  });

  it('deletes a file after confirmation', async () => {
    const fetchMock = stubApi({
      '/api/v1/files/third-party': { body: page },
      'DELETE /api/v1/files/third-party/f_2': { body: {} },
    });
    await openFiles();
    await screen.findByRole('table', { name: 'Submitted files' });

    await userEvent.click(screen.getByRole('button', { name: 'Actions for file f_2' }));
    // jsdom never ends the menu's opening transition, so its items count as hidden there.
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete', hidden: true }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete file' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('File deleted')).toBeInTheDocument();
    expect(
      fetchMock.mock.calls.some(
        ([url, init]) => url === '/api/v1/files/third-party/f_2' && init?.method === 'DELETE',
      ),
    ).toBe(true);
  });
});

describe('webhooks', { timeout: 20_000 }, () => {
  it("shows a file's delivery attempts and sends the webhook again", async () => {
    const fetchMock = stubApi({
      '/api/v1/files/third-party': { body: page },
      '/api/v1/files/third-party/f_1/webhook-attempts': {
        body: {
          attempts: [
            {
              id: 'wa_2',
              messageId: 'msg_1',
              attempt: 2,
              at: new Date(2026, 10, 23, 9, 7, 0).toISOString(),
              url: 'https://hooks.example.com/transcripts',
              statusCode: 200,
              error: null,
              durationMs: 120,
              succeeded: true,
              nextAttemptAt: null,
            },
            {
              id: 'wa_1',
              messageId: 'msg_1',
              attempt: 1,
              at: new Date(2026, 10, 23, 9, 6, 0).toISOString(),
              url: 'https://hooks.example.com/transcripts',
              statusCode: 500,
              error: 'HTTP 500',
              durationMs: 80,
              succeeded: false,
              nextAttemptAt: null,
            },
          ],
        },
      },
      'POST /api/v1/files/third-party/f_1/webhook-resend': { status: 202, body: { messageId: 'msg_2' } },
    });
    await openFiles();
    await screen.findByRole('table', { name: 'Submitted files' });

    await userEvent.click(screen.getByRole('button', { name: 'Actions for file f_1' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Webhook deliveries', hidden: true }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Webhook deliveries' }));
    const attempts = within(await dialog.findByRole('table', { name: 'Delivery attempts' }));
    const rows = attempts.getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      '2026-11-23 09:07:002200-',
      '2026-11-23 09:06:001500HTTP 500-',
    ]);

    await userEvent.click(dialog.getByRole('button', { name: 'Resend' }));
    expect(await screen.findByText('Webhook sent again')).toBeInTheDocument();
    expect(
      fetchMock.mock.calls.some(
        ([url, init]) => url === '/api/v1/files/third-party/f_1/webhook-resend' && init?.method === 'POST',
      ),
    ).toBe(true);
  });

  it('shows the signing secret only when asked, with a verification example', async () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    stubApi({
      '/api/v1/files/third-party': { body: page },
      '/api/v1/webhooks/signing-secret': { body: { secret } },
    });
    await openFiles();

    const card = within(await screen.findByRole('region', { name: 'Webhook signing secret' }));
    await vi.waitFor(() => expect(card.getByTestId('webhook-secret')).toHaveTextContent(/^whsec_•+$/));
    expect(card.queryByText(secret)).not.toBeInTheDocument();
    await userEvent.click(card.getByRole('button', { name: 'Show' }));
    expect(card.getByTestId('webhook-secret')).toHaveTextContent(secret);

    await userEvent.click(card.getByRole('button', { name: 'Show a verification example' }));
    expect(card.getByText(/createHmac\('sha256', key\)/)).toBeInTheDocument();
  });
});

describe('upload modal', { timeout: 20_000 }, () => {
  function stubForUpload(extra: Parameters<typeof stubApi>[0] = {}) {
    return stubApi({
      '/api/v1/files/third-party': { body: page },
      '/api/v1/settings/transcript-languages': { body: languages },
      ...extra,
    });
  }

  async function openModal() {
    await openFiles('/submitted-files?upload');
    return within(await screen.findByRole('dialog', { name: 'Upload file' }));
  }

  it("preselects the account's transcription language and shows the spec's validation messages", async () => {
    stubForUpload();
    const modal = await openModal();
    await vi.waitFor(() => expect(modal.getByRole('textbox', { name: 'Language' })).toHaveValue('English'));

    await userEvent.type(modal.getByRole('textbox', { name: 'Webhook URL (optional)' }), 'ftp://example.com');
    await userEvent.click(modal.getByRole('button', { name: 'Upload' }));

    expect(await modal.findByText('Invalid file')).toBeInTheDocument();
    expect(modal.getByText('Invalid url')).toBeInTheDocument();
  });

  it('refuses a file that is not audio or video', async () => {
    stubForUpload();
    const modal = await openModal();
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    await userEvent.upload(input, new File(['hello'], 'notes.txt', { type: 'text/plain' }), {
      applyAccept: false,
    });
    await userEvent.click(modal.getByRole('button', { name: 'Upload' }));

    expect(await modal.findByText('Invalid file')).toBeInTheDocument();
  });

  it('uploads the file resumably and closes with a toast', async () => {
    const fetchMock = stubForUpload({
      'POST /api/v1/media/recordings': { body: { fileId: 'f_9', size: 0, isCompleted: false } },
      'PUT /api/v1/media/f_9': { body: { fileId: 'f_9', size: 5, isCompleted: true } },
    });
    const { router } = await openFiles('/submitted-files?upload');
    const modal = within(await screen.findByRole('dialog', { name: 'Upload file' }));
    await vi.waitFor(() => expect(modal.getByRole('textbox', { name: 'Language' })).toHaveValue('English'));
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    await userEvent.upload(input, new File(['audio'], 'memo.wav', { type: 'audio/wav' }));
    await userEvent.click(modal.getByRole('button', { name: 'Upload' }));

    expect(await screen.findByText('File uploaded: its transcription has started')).toBeInTheDocument();
    await vi.waitFor(() => expect(router.state.location.search).toBe(''));
    await vi.waitFor(
      () => expect(screen.queryByRole('dialog', { name: 'Upload file' })).not.toBeInTheDocument(),
      { timeout: 4_000 },
    );
    const create = fetchMock.mock.calls.find(([url]) => url === '/api/v1/media/recordings');
    expect(JSON.parse(create?.[1]?.body as string)).toEqual({
      fileName: 'memo.wav',
      size: 5,
      type: 'audio/wav',
      languageCode: 'en',
      // sha1sum of "audio".
      sha1: 'a06a492959ce12b3f0292406ec84177d07ae19b1',
    });
  });

  it.each([
    { status: 409, code: 'FILE_ALREADY_EXISTS', shown: 'File already exists' },
    { status: 413, code: 'STORAGE_LIMIT_REACHED', shown: 'Storage limit reached' },
    { status: 503, code: 'INTERNAL_ERROR', shown: 'File upload failed' },
  ])('says $shown when the server answers $code (spec §8)', async ({ status, code, shown }) => {
    stubForUpload({
      'POST /api/v1/media/recordings': { status, body: { code, message: shown } },
    });
    const modal = await openModal();
    await vi.waitFor(() => expect(modal.getByRole('textbox', { name: 'Language' })).toHaveValue('English'));
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    await userEvent.upload(input, new File(['audio'], 'memo.wav', { type: 'audio/wav' }));
    await userEvent.click(modal.getByRole('button', { name: 'Upload' }));

    expect(await modal.findByRole('alert')).toHaveTextContent(shown);
  });
});
