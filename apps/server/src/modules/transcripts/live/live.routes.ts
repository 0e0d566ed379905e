import { apiErrorSchema, liveQuerySchema, liveServerMessageSchema } from '@verbatim/contracts';
import type { WebSocket } from '@fastify/websocket';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicApiSecurity, type ApiAuthenticator } from '../../api-keys/api-authentication.js';
import type { LiveTranscriptionService } from './live-transcription.service.js';

export const liveProtocolDescription = `A WebSocket on the API's port. Authenticate with the \`accessToken\` query parameter (a console access token or an API key; browsers cannot set headers), or, from a server, with \`Authorization: Bearer <key>\` or \`x-api-key\`.

**Client → server.** Binary frames of audio: mono, 16 kHz float32 little-endian by default (\`encoding=s16le\` for 16-bit integers, \`sampleRate\` for another rate, resampled by the server); any chunk size up to 1 MiB, a whole number of samples. The text frame \`Done\` ends the session.

**Server → client.** JSON text frames: \`{"type":"connected"}\` once the session is ready (audio sent earlier is kept), then \`{"type":"partial"|"final","segment":<id>,"text":"…"}\`. A message with the same \`segment\` as the last one replaces it; a new \`segment\` is appended; the transcript is every segment's text followed by a newline. Partials come at least once a second while someone speaks. When the voice pauses, what was said is decoded at once and sent as a final as soon as the silence has lasted a quarter of a second (a third with tiny models), usually within 0.7 s of the last word; a final is never contradicted: if the voice goes on, its words are appended to the same segment. A longer pause ends the paragraph (half a second of silence once the utterance has lasted 3 s, a second for a shorter one, so a sentence is not cut at its commas; a long utterance is cut at a pause before 20 s): with \`endpoints=true\` (default) the next speech starts a new segment; with \`endpoints=false\` the segment grows. \`Done\` flushes at once: only the words said since the last final are decoded.

**Closing.** After \`Done\` the last final is sent, then the server closes with 1000. Other closes carry a JSON reason \`{"code":"…","message":"…"}\`: 4401 bad or expired credentials; 4400 bad parameter, unknown language, a frame that is not a whole number of samples, or a text frame other than \`Done\`; 1009 a frame over 1 MiB; 4402 credit exhausted or the key's monthly cap reached (after the last final), or, on the on-premise edition, its licence refusing new work (LICENSE_…); 4408 no audio for 60 s; 4503 every live slot busy or no speech model; 1012 the server is shutting down (after the last final); 1011 an unexpected failure.

**Price.** Streamed audio is charged while the session runs, every 15 s of audio and at the end, at the streaming price; with \`source=file\` (a recording streamed as if spoken) at the pre-recorded socket price. A session stops (4402) at most one slice past the balance or the key's cap.

Example (Node.js 22, \`ws\` package):

\`\`\`js
import WebSocket from 'ws';
const socket = new WebSocket('wss://HOST/api/v1/transcripts/streaming?languageCode=en&encoding=s16le&sampleRate=16000', {
  headers: { 'x-api-key': process.env.VERBATIM_API_KEY },
});
socket.on('message', (data) => {
  const message = JSON.parse(data.toString());
  if (message.type === 'connected') {
    for (const chunk of pcmChunks) socket.send(chunk); // Buffers of 16-bit PCM, sent as they are recorded
    socket.send('Done');
  } else {
    console.log(message.type, message.segment, message.text);
  }
});
socket.on('close', (code, reason) => console.log('closed', code, reason.toString()));
\`\`\``;

/** `GET /transcripts/streaming`: the live transcription socket (spec §7). */
export function liveRoutes(
  live: LiveTranscriptionService,
  authentication: ApiAuthenticator,
): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await -- a plugin is an async function; this one only declares a route
  return async (app) => {
    app.route({
      method: 'GET',
      url: '/transcripts/streaming',
      // Parameters are checked by the session, which closes with 4400 and a reason: a failed
      // HTTP upgrade would tell a browser nothing.
      validatorCompiler: () => (value: unknown) => ({ value }),
      schema: {
        tags: ['transcription'],
        summary: 'Live transcription (WebSocket)',
        description: liveProtocolDescription,
        security: publicApiSecurity,
        querystring: liveQuerySchema,
        response: {
          101: z
            .object({ messages: z.array(liveServerMessageSchema) })
            .describe(
              'Switching protocols: the WebSocket session; the messages it sends are LiveServerMessage.',
            ),
          '4xx': apiErrorSchema,
        },
      },
      // `wsHandler` rather than `websocket: true`, which would hide the route from the API reference.
      wsHandler: (socket: WebSocket, request: FastifyRequest) => {
        const session = live.accept(socket, request.log);
        void authentication
          .authenticateSocket(request)
          .then((principal) =>
            live.begin(
              session,
              { accountId: principal.account.id, apiKeyId: principal.apiKey?.id ?? null },
              request.query as Record<string, unknown>,
            ),
          )
          .catch((error: unknown) => session.refuse(error));
      },
      // A plain GET (no upgrade): say how to use it.
      handler: async (_request, reply) =>
        reply.code(426).header('upgrade', 'websocket').send({
          code: 'BAD_REQUEST',
          message: 'This address is a WebSocket: connect with a WebSocket client (see the API reference).',
        }),
    });
  };
}
