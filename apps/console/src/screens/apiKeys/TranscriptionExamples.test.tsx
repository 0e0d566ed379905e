import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ApiKey } from '@verbatim/contracts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../app/routes';
import { renderRoutes } from '../../test/renderRoutes';
import { stubApi } from '../../test/stubApi';

const olderKey: ApiKey = {
  id: 'key_old',
  prefix: 'vbt_live_OlderKy',
  name: 'Batch jobs',
  status: 'active',
  created: '2025-01-10T08:00:00.000Z',
  expiry: null,
  used: null,
  revoked: null,
  monthlyCapCents: null,
  spentThisMonthCents: 0,
};
const newerKey: ApiKey = {
  ...olderKey,
  id: 'key_new',
  prefix: 'vbt_live_NewerKy',
  name: null,
  created: '2025-03-04T10:20:30.000Z',
};
/** The newest of all, but revoked: never the one an example names. */
const revokedKey: ApiKey = {
  ...olderKey,
  id: 'key_revoked',
  prefix: 'vbt_live_Revoked',
  status: 'revoked',
  created: '2025-04-01T00:00:00.000Z',
  revoked: '2025-04-02T00:00:00.000Z',
};

function stub(keys: ApiKey[]) {
  return stubApi({ '/api/v1/auth/api-keys': { body: keys }, '/api/v1/limiter/usages': { body: [] } });
}

async function openSection() {
  const view = await renderRoutes(routes, { initialEntries: ['/speech-to-text-api'], signedIn: true });
  const section = await screen.findByRole('region', { name: 'Transcribe a recording' });
  return { ...view, section: within(section) };
}

let writeText: ReturnType<typeof vi.fn<(text: string) => Promise<void>>>;
beforeEach(() => {
  writeText = vi.fn<(text: string) => Promise<void>>(() => Promise.resolve());
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
});

describe('Transcribe a recording', () => {
  it('shows curl calls for this address with the newest active key by its prefix, and copies them', async () => {
    stub([olderKey, newerKey, revokedKey]);
    const { section } = await openSection();
    const api = `${window.location.origin}/api/v1`;

    expect(section.getByRole('tab', { name: 'curl' })).toHaveAttribute('aria-selected', 'true');
    const raw = await section.findByTestId('transcription-example-curlRaw');
    expect(raw.textContent).toBe(
      [
        `curl -X POST "${api}/transcripts" \\`,
        `  -H "Authorization: Bearer vbt_live_NewerKy…" \\`,
        `  -H "Content-Type: audio/mpeg" \\`,
        `  --data-binary @recording.mp3`,
      ].join('\n'),
    );
    const srt = section.getByTestId('transcription-example-curlMultipartSrt');
    expect(srt).toHaveTextContent(`curl "${api}/transcripts?language=fr&format=srt"`);
    expect(srt).toHaveTextContent('-F file=@interview.m4a');
    expect(section.getByTestId('transcription-key-hint')).toHaveTextContent(
      'The examples show your key by its beginning, vbt_live_NewerKy…: put the whole key in its place. It was shown only once',
    );
    expect(section.queryByText(/vbt_live_Revoked/)).not.toBeInTheDocument();

    const srtGroup = within(section.getByRole('group', { name: /French subtitles as SubRip/ }));
    await userEvent.click(srtGroup.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith(srt.textContent);
    expect(await srtGroup.findByRole('button', { name: 'Copied' })).toBeInTheDocument();
  });

  it('shows the OpenAI SDKs pointed at this server in the JavaScript and Python tabs', async () => {
    stub([newerKey]);
    const { section } = await openSection();
    const api = `${window.location.origin}/api/v1`;

    await userEvent.click(section.getByRole('tab', { name: 'JavaScript' }));
    expect(section.getByRole('tab', { name: 'JavaScript' })).toHaveAttribute('aria-selected', 'true');
    expect(section.getByTestId('transcription-example-javascriptFetch')).toHaveTextContent(
      `fetch('${api}/transcripts?language=en'`,
    );
    const sdk = section.getByTestId('transcription-example-javascriptOpenAi');
    expect(sdk).toHaveTextContent(`apiKey: 'vbt_live_NewerKy…'`);
    expect(sdk).toHaveTextContent(`baseURL: '${api}'`);
    expect(sdk).toHaveTextContent('client.audio.transcriptions.create(');
    const live = section.getByTestId('transcription-example-javascriptLive');
    expect(live).toHaveTextContent(
      `'${api.replace(/^http/, 'ws')}/transcripts/streaming?languageCode=en&encoding=s16le&source=file'`,
    );
    expect(live).toHaveTextContent(`headers: { 'x-api-key': 'vbt_live_NewerKy…' }`);
    // Only the open tab's examples are on the page, so "Copy" is never ambiguous within a group.
    expect(section.queryByTestId('transcription-example-curlRaw')).not.toBeInTheDocument();

    await userEvent.click(section.getByRole('tab', { name: 'Python' }));
    const python = section.getByTestId('transcription-example-pythonOpenAi');
    expect(python).toHaveTextContent(`api_key="vbt_live_NewerKy…"`);
    expect(python).toHaveTextContent(`base_url="${api}"`);
    expect(section.getByText('pip install openai')).toBeInTheDocument();
    const group = within(section.getByRole('group', { name: /The official openai package/ }));
    await userEvent.click(group.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith(python.textContent);
  });

  it('stands in vbt_live_… and says how to get a key when there is none', async () => {
    stub([revokedKey]);
    const { section } = await openSection();
    expect(await section.findByTestId('transcription-key-hint')).toHaveTextContent(
      'Generate an API key above and put it in place of vbt_live_…',
    );
    expect(section.getByTestId('transcription-example-curlRaw')).toHaveTextContent(
      'Authorization: Bearer vbt_live_…',
    );
    expect(section.queryByLabelText('Key shown in the examples')).not.toBeInTheDocument();
  });

  it('lets the reader choose which of several active keys the examples name', async () => {
    stub([olderKey, newerKey]);
    const { section } = await openSection();
    const choice = await section.findByLabelText('Key shown in the examples');
    expect(choice).toHaveValue('key_new');
    await userEvent.selectOptions(choice, 'vbt_live_OlderKy… (Batch jobs)');
    expect(section.getByTestId('transcription-example-curlRaw')).toHaveTextContent(
      'Authorization: Bearer vbt_live_OlderKy…',
    );
  });

  it('speaks French, code unchanged', async () => {
    stub([newerKey]);
    const { i18n } = await openSection();
    await act(() => i18n.changeLanguage('fr'));
    const section = within(await screen.findByRole('region', { name: 'Transcrire un enregistrement' }));
    expect(
      section.getByRole('tablist', { name: 'Langage de programmation des exemples' }),
    ).toBeInTheDocument();
    expect(section.getByText(/L'enregistrement comme corps de la requête/)).toBeInTheDocument();
    expect(section.getAllByRole('button', { name: 'Copier' }).length).toBeGreaterThan(0);
    expect(section.getByTestId('transcription-example-curlRaw')).toHaveTextContent(
      '--data-binary @recording.mp3',
    );
  });
});
