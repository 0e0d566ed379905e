// What the live benchmarks share: one real-time socket session, percentiles, and how figures print.
import os from 'node:os';
import { liveServerMessageSchema, type LiveServerMessage } from '@verbatim/contracts';

export const sampleRate = 16_000;
/** A microphone's frame: 2048 samples of 16 kHz float32 (128 ms). */
export const frameSamples = 2048;

export interface SessionResult {
  messages: { message: LiveServerMessage; at: number }[];
  /** performance.now() when the first sample was sent. */
  started: number;
  /** performance.now() when `Done` was sent. */
  doneAt: number;
  closeCode: number;
}

/** One session: the samples sent in real time (2048-sample frames), then `Done`. */
export async function streamSession(
  url: string,
  samples: Float32Array,
  onMessage?: (at: number) => void,
): Promise<SessionResult> {
  const socket = new WebSocket(url);
  socket.binaryType = 'arraybuffer';
  const messages: SessionResult['messages'] = [];
  let connected: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (connected = resolve));
  socket.addEventListener('message', (event) => {
    const message = liveServerMessageSchema.parse(JSON.parse(String(event.data)));
    const at = performance.now();
    if (message.type === 'connected') connected();
    else messages.push({ message, at });
    onMessage?.(at);
  });
  const closed = new Promise<number>((resolve) =>
    socket.addEventListener('close', (event) => resolve(event.code)),
  );
  await ready;
  const started = performance.now();
  for (let at = 0; at < samples.length && socket.readyState === WebSocket.OPEN; at += frameSamples) {
    socket.send(samples.slice(at, at + frameSamples));
    // A frame is sent once it has been spoken in full (the last one too, however short).
    const due =
      (Math.min(samples.length, at + frameSamples) / sampleRate) * 1000 - (performance.now() - started);
    if (due > 0) await new Promise((resolve) => setTimeout(resolve, due));
  }
  const doneAt = performance.now();
  if (socket.readyState === WebSocket.OPEN) socket.send('Done');
  return { messages, started, doneAt, closeCode: await closed };
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

export const s = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)} s` : '-');
export const pct = (value: number) => `${(value * 100).toFixed(2)}%`;
export const load = () => os.loadavg()[0]?.toFixed(1) ?? '?';
