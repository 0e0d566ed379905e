import { fileChunkSamples, streamingSampleRate } from './audioFormat';

/**
 * Spec §4: a picked file is decoded in the browser and resampled to 16 kHz mono. The
 * OfflineAudioContext mixes the channels down and resamples with the browser's own band-limited
 * converter.
 */
export async function decodeToStreamingFormat(file: Blob): Promise<Float32Array> {
  const bytes = await file.arrayBuffer();
  // Decoding needs a context of some rate; the decoded buffer keeps the file's own rate.
  const decoder = new OfflineAudioContext(1, 1, streamingSampleRate);
  const decoded = await decoder.decodeAudioData(bytes);
  const length = Math.max(1, Math.ceil(decoded.duration * streamingSampleRate));
  const renderer = new OfflineAudioContext(1, length, streamingSampleRate);
  const source = renderer.createBufferSource();
  source.buffer = decoded;
  source.connect(renderer.destination);
  source.start();
  const rendered = await renderer.startRendering();
  return rendered.getChannelData(0);
}

export interface ChunkSink {
  send: (samples: Float32Array) => void;
  /** Bytes accepted but not yet on the network: pacing waits while the link is behind. */
  bufferedAmount: () => number;
}

/** More than two seconds of audio still waiting in the socket: the network is behind. */
const maxBufferedBytes = 2 * streamingSampleRate * Float32Array.BYTES_PER_ELEMENT;

/**
 * Sends `samples` in chunks of 8000 (spec §9), paced in real time as if spoken: chunk i leaves at
 * i × 0.5 s after the first, so the transcript appears at the pace of the recording. Resolves once
 * the last chunk is sent; rejects with the signal's reason when aborted.
 */
export async function sendInRealTime(
  samples: Float32Array,
  sink: ChunkSink,
  signal: AbortSignal,
  { chunkSamples = fileChunkSamples, now = () => performance.now() } = {},
): Promise<void> {
  const chunkMs = (chunkSamples / streamingSampleRate) * 1000;
  const started = now();
  for (let index = 0, offset = 0; offset < samples.length; index += 1, offset += chunkSamples) {
    const due = started + index * chunkMs;
    await waitUntil(() => now() >= due && sink.bufferedAmount() <= maxBufferedBytes, signal);
    sink.send(samples.slice(offset, offset + chunkSamples));
  }
}

function waitUntil(condition: () => boolean, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (signal.aborted) {
        reject(signal.reason instanceof Error ? signal.reason : new DOMException('Aborted', 'AbortError'));
      } else if (condition()) {
        resolve();
      } else {
        setTimeout(check, 20);
      }
    };
    check();
  });
}
