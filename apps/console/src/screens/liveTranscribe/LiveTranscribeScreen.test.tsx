import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Settings, TranscriptionLanguageEntry } from '@verbatim/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../app/routes';
import { sampleSettings } from '../../test/fixtures';
import { renderRoutes } from '../../test/renderRoutes';
import { stubApi } from '../../test/stubApi';

const languages: TranscriptionLanguageEntry[] = [
  { code: 'en', name: 'English', isRealtimeSupported: true },
  { code: 'cy', name: 'Welsh', isRealtimeSupported: false },
  { code: 'fr', name: 'French', isRealtimeSupported: true },
  { code: 'fr-medical', name: 'French (Medical)', isRealtimeSupported: true },
];

/**
 * jsdom has no microphones: a stand-in for the browser's media devices and permission status,
 * with the devices and the permission a test sets.
 */
function installMicrophones(initial: { permission: PermissionState; devices: Partial<MediaDeviceInfo>[] }) {
  let devices = initial.devices;
  const deviceListeners = new Set<() => void>();
  const permissionStatus = Object.assign(new EventTarget(), { state: initial.permission });
  Object.defineProperty(navigator, 'permissions', {
    configurable: true,
    value: { query: () => Promise.resolve(permissionStatus) },
  });
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: {
      enumerateDevices: () => Promise.resolve(devices),
      getUserMedia: () =>
        initial.permission === 'denied'
          ? Promise.reject(new DOMException('Permission denied', 'NotAllowedError'))
          : Promise.resolve({ getTracks: () => [] }),
      addEventListener: (_type: string, listener: () => void) => deviceListeners.add(listener),
      removeEventListener: (_type: string, listener: () => void) => deviceListeners.delete(listener),
    },
  });
  return {
    changeDevices(next: Partial<MediaDeviceInfo>[]) {
      devices = next;
      for (const listener of deviceListeners) listener();
    },
  };
}

const mic = (deviceId: string, label: string): Partial<MediaDeviceInfo> => ({
  kind: 'audioinput',
  deviceId,
  label,
});

async function openScreen(settings: Settings = sampleSettings) {
  stubApi({
    '/api/v1/settings': { body: settings },
    '/api/v1/settings/transcript-languages': { body: languages },
  });
  await renderRoutes(routes, { initialEntries: ['/live-transcribe'], signedIn: true });
  await screen.findByRole('heading', { level: 1, name: 'Live transcribe' });
}

const field = (name: RegExp) => screen.getByRole('textbox', { name });

beforeEach(() => {
  document.documentElement.lang = 'en';
});
afterEach(() => {
  Reflect.deleteProperty(navigator, 'mediaDevices');
  Reflect.deleteProperty(navigator, 'permissions');
});

// Mantine's selects take seconds to open in jsdom on a busy machine.
describe('live transcribe screen', { timeout: 30_000 }, () => {
  it('lists the labelled microphones (first chosen), realtime languages only with the default preselected, endpoints on', async () => {
    installMicrophones({
      permission: 'granted',
      devices: [
        mic('mic-1', 'Built-in microphone'),
        mic('mic-2', 'USB headset'),
        mic('', ''),
        { kind: 'audiooutput', deviceId: 'spk', label: 'Speakers' },
      ],
    });
    await openScreen({
      ...sampleSettings,
      transcripts: { language: 'fr-medical', deletionAfterDays: null, diarize: false },
    });
    await waitFor(() => expect(field(/^Microphone/)).toHaveValue('Built-in microphone'));
    await waitFor(() => expect(field(/^Language/)).toHaveValue('French (Medical)'));
    expect(screen.getByRole('switch', { name: /Endpoints \(new paragraphs\)/ })).toBeChecked();
    expect(screen.getByText('- OR -')).toBeInTheDocument();
    expect(
      screen.getByText('500 MB limit. Supported formats: mp3, mp4, ogg, wav, flac, webm, mov'),
    ).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Transcript' })).toHaveAttribute('readonly');
    expect(screen.getByRole('textbox', { name: 'Transcript' })).toHaveAttribute('rows', '10');
    expect(screen.getByRole('button', { name: 'Start' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Stop' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Reset' })).toBeDisabled();
    expect(screen.getByLabelText('Elapsed time 00:00')).toBeInTheDocument();
    // Copy and Download come after a session only.
    expect(screen.queryByRole('button', { name: 'Download' })).not.toBeInTheDocument();

    await userEvent.click(field(/^Microphone/));
    expect(await screen.findByRole('option', { name: 'USB headset', hidden: true })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Speakers', hidden: true })).not.toBeInTheDocument();
    await userEvent.click(field(/^Language/));
    const options = await screen.findAllByRole('option', { hidden: true });
    expect(options.map((option) => option.textContent)).toContain('French');
    expect(options.map((option) => option.textContent)).not.toContain('Welsh');
  });

  it('falls back to the first microphone when the chosen one disappears', async () => {
    const devices = installMicrophones({
      permission: 'granted',
      devices: [mic('mic-1', 'Built-in microphone'), mic('mic-2', 'USB headset')],
    });
    await openScreen();
    await waitFor(() => expect(field(/^Microphone/)).toHaveValue('Built-in microphone'));
    await userEvent.click(field(/^Microphone/));
    await userEvent.click(await screen.findByRole('option', { name: 'USB headset', hidden: true }));
    expect(field(/^Microphone/)).toHaveValue('USB headset');
    devices.changeDevices([mic('mic-1', 'Built-in microphone'), mic('mic-3', 'Webcam')]);
    await waitFor(() => expect(field(/^Microphone/)).toHaveValue('Built-in microphone'));
  });

  it('checks the form before starting, every problem on its field; a picked file turns Start into Upload', async () => {
    installMicrophones({ permission: 'granted', devices: [] });
    // The default language is files-only: nothing preselected.
    await openScreen({
      ...sampleSettings,
      transcripts: { language: 'cy', deletionAfterDays: null, diarize: false },
    });
    await waitFor(() => expect(field(/^Language/)).toBeEnabled());
    expect(field(/^Language/)).toHaveValue('');
    await userEvent.click(screen.getByRole('button', { name: 'Start' }));
    expect(await screen.findByText('Select valid language')).toBeInTheDocument();
    expect(screen.getByText('Select valid microphone')).toBeInTheDocument();

    const picker = document.querySelector<HTMLInputElement>('input[type="file"]');
    if (!picker) throw new Error('no file input');
    await userEvent.upload(picker, new File(['not audio'], 'notes.txt', { type: 'text/plain' }), {
      applyAccept: false,
    });
    expect(await screen.findByText('Invalid file')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload' })).toBeInTheDocument();
    expect(screen.queryByText('Select valid microphone')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Clear file' }));
    expect(screen.getByRole('button', { name: 'Start' })).toBeInTheDocument();
    expect(screen.queryByText('Invalid file')).not.toBeInTheDocument();
  });

  it('a denied microphone permission blocks the microphone with both messages', async () => {
    installMicrophones({ permission: 'denied', devices: [] });
    await openScreen();
    expect(await screen.findByText('Microphone permission denied.')).toBeInTheDocument();
    expect(screen.getByText('Microphone permission is blocked.')).toBeInTheDocument();
    expect(
      within(screen.getAllByRole('status')[0] ?? document.body).getByText('The microphone cannot be used.'),
    ).toBeInTheDocument();
    // Blocked keeps the inputs editable (spec §4), so a file can still be used.
    expect(field(/^Language/)).toBeEnabled();
  });

  it('is offered in the sidebar and by Getting started', async () => {
    installMicrophones({ permission: 'granted', devices: [] });
    stubApi({ '/api/v1/settings/transcript-languages': { body: languages } });
    await renderRoutes(routes, { initialEntries: ['/home'], signedIn: true });
    const quickAction = await within(screen.getByRole('main')).findByRole('link', {
      name: 'Live transcribe',
    });
    expect(quickAction).toHaveAttribute('href', '/live-transcribe');
    const navigation = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(await within(navigation).findByRole('link', { name: 'Live transcribe' })).toHaveAttribute(
      'href',
      '/live-transcribe',
    );
  });
});
