import { liveServerMessageSchema, type LiveServerMessage } from '@verbatim/contracts';

export interface Received {
  messages: LiveServerMessage[];
  /** When each message arrived (ms, performance.now). */
  times: number[];
  closed: Promise<{ code: number; reason: string }>;
  connected: Promise<void>;
  socket: WebSocket;
}

/** A live socket, as a client sees it (Node's own WebSocket, as a browser's). */
export function openLive(url: string, init?: { headers: Record<string, string> }): Received {
  // Node's WebSocket (undici) takes headers as a second argument; a browser's cannot.
  const socket = new WebSocket(url, init);
  socket.binaryType = 'arraybuffer';
  const messages: LiveServerMessage[] = [];
  const times: number[] = [];
  let onConnected: () => void = () => undefined;
  const connected = new Promise<void>((resolve) => (onConnected = resolve));
  socket.addEventListener('message', (event) => {
    const message = liveServerMessageSchema.parse(JSON.parse(String(event.data)));
    if (message.type === 'connected') onConnected();
    messages.push(message);
    times.push(performance.now());
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.addEventListener('close', (event) => resolve({ code: event.code, reason: event.reason })),
  );
  return { messages, times, closed, connected, socket };
}
