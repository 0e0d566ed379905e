import captureWorkletUrl from './captureProcessor.worklet.ts?worker&url';
import { captureProcessorName, captureSampleRate } from './audioFormat';

/** Spec §3 Audio device. */
export interface AudioDevice {
  deviceId: string;
  label: string;
}

/** Spec §4: microphone permission is denied, prompt or granted. */
export type MicrophonePermission = 'denied' | 'prompt' | 'granted';

/**
 * The microphone permission as the browser reports it, with its changes; undefined where the
 * Permissions API does not know the microphone (the first getUserMedia tells then).
 */
export async function watchMicrophonePermission(
  onChange: (permission: MicrophonePermission) => void,
): Promise<{ permission: MicrophonePermission | undefined; stop: () => void }> {
  try {
    const status = await navigator.permissions.query({ name: 'microphone' });
    const listener = () => onChange(status.state);
    status.addEventListener('change', listener);
    return { permission: status.state, stop: () => status.removeEventListener('change', listener) };
  } catch {
    return { permission: undefined, stop: () => undefined };
  }
}

/** Spec §4: audio inputs with a label and an id (labels show only once permission is granted). */
export async function listMicrophones(): Promise<AudioDevice[]> {
  const devices = await navigator.mediaDevices.enumerateDevices();
  return devices
    .filter((device) => device.kind === 'audioinput' && device.deviceId !== '' && device.label !== '')
    .map(({ deviceId, label }) => ({ deviceId, label }));
}

/**
 * Asks for the microphone once (the browser's prompt) so that the devices show their labels, and
 * releases it at once. Rejects with the browser's NotAllowedError when refused.
 */
export async function requestMicrophoneAccess(): Promise<void> {
  const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
  for (const track of stream.getTracks()) track.stop();
}

/** The browser refused the microphone (the user, a policy, or a remembered choice). */
export function isPermissionRefusal(error: unknown): boolean {
  return (
    error instanceof DOMException && (error.name === 'NotAllowedError' || error.name === 'SecurityError')
  );
}

export interface MicrophoneCapture {
  /** Sends what is still buffered, then releases the microphone and the audio context. */
  stop: () => Promise<void>;
}

/** How long Stop waits for the worklet's last frame before releasing the microphone anyway. */
const flushTimeoutMs = 500;

/**
 * Records `deviceId` (spec §4, §9): an AudioContext at 48 kHz feeds the capture AudioWorklet, which
 * downsamples to 16 kHz mono and hands over frames of 2048 samples.
 */
export async function startMicrophoneCapture(
  deviceId: string,
  onFrame: (samples: Float32Array) => void,
): Promise<MicrophoneCapture> {
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: { deviceId: { exact: deviceId }, channelCount: 1 },
  });
  const stopTracks = () => {
    for (const track of stream.getTracks()) track.stop();
  };
  let context: AudioContext | undefined;
  try {
    context = new AudioContext({ sampleRate: captureSampleRate });
    let source: MediaStreamAudioSourceNode;
    try {
      source = context.createMediaStreamSource(stream);
    } catch {
      // Firefox cannot connect a microphone to a context at another rate than the device's:
      // capture at the device's rate, the worklet's resampler takes any rate.
      await context.close();
      context = new AudioContext();
      source = context.createMediaStreamSource(stream);
    }
    await context.audioWorklet.addModule(captureWorkletUrl);
    const node = new AudioWorkletNode(context, captureProcessorName, {
      numberOfInputs: 1,
      numberOfOutputs: 0,
      channelCount: 1,
      channelCountMode: 'explicit',
      channelInterpretation: 'speakers',
    });
    let flushed: (() => void) | undefined;
    node.port.onmessage = (event: MessageEvent<unknown>) => {
      if (event.data instanceof Float32Array) onFrame(event.data);
      else if (event.data === 'flushed') flushed?.();
    };
    source.connect(node);
    if (context.state === 'suspended') await context.resume();

    const running = context;
    return {
      stop: async () => {
        await new Promise<void>((resolve) => {
          flushed = resolve;
          setTimeout(resolve, flushTimeoutMs);
          node.port.postMessage('flush');
        });
        node.port.onmessage = null;
        source.disconnect();
        stopTracks();
        // The last frame is out: the caller sends Done now (the server flushes its last final at
        // once); the audio context closes behind it.
        void running.close().catch(() => undefined);
      },
    };
  } catch (error) {
    stopTracks();
    await context?.close().catch(() => undefined);
    throw error;
  }
}
