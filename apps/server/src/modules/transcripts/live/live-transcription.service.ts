import type { WebSocket } from '@fastify/websocket';
import { LIVE_SAMPLE_RATE, liveCloseCodes, liveQuerySchema, type LiveQuery } from '@verbatim/contracts';
import type { SpeechEngine } from '@verbatim/speech';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../../errors/app-error.js';
import { newId } from '../../../lib/ids.js';
import type { UsageMeter } from '../../credits/usage-meter.js';
import { toAppErrorFromSpeech } from '../speech-app-error.js';
import { LiveMetering, liveProduct, type LiveCaller } from './live-metering.js';
import { closeReason, LiveSession } from './live-session.js';

export interface LiveOptions {
  maxSessions: number;
  idleTimeoutSeconds: number;
  meteringSliceSeconds: number;
}

/**
 * Live transcription sessions over WebSockets: checks each one's parameters, language and credit,
 * opens a streaming recogniser of the speech engine for it, meters it, and at shutdown makes every
 * session's text final before closing it with 1012.
 */
export class LiveTranscriptionService {
  readonly #sessions = new Set<LiveSession>();
  /** Sessions that hold a recogniser (counted against `maxSessions`). */
  readonly #running = new Set<LiveSession>();
  #shuttingDown = false;

  constructor(
    private readonly engine: SpeechEngine,
    private readonly meter: Pick<UsageMeter, 'charge' | 'assertAffordable'>,
    private readonly options: LiveOptions,
  ) {}

  /** Sessions open (authenticated or not). */
  get sessions(): number {
    return this.#sessions.size;
  }

  /** Takes the socket at once (so no frame is lost while the caller authenticates). */
  accept(socket: WebSocket, log: FastifyBaseLogger): LiveSession {
    const session = new LiveSession(socket, log, this.options.idleTimeoutSeconds * 1000, (ended) => {
      this.#sessions.delete(ended);
      this.#running.delete(ended);
    });
    this.#sessions.add(session);
    if (this.#shuttingDown) session.refuse(new AppError('NOT_READY', 'The server is shutting down.'));
    return session;
  }

  /** Parameters as sent (query strings): a session configured and started, or refused with its close code. */
  async begin(session: LiveSession, caller: LiveCaller, rawQuery: Record<string, unknown>): Promise<void> {
    try {
      const parsed = liveQuerySchema.safeParse(rawQuery);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new AppError(
          'VALIDATION_FAILED',
          issue ? `${issue.path.join('.')}: ${issue.message}` : 'Bad query parameters.',
        );
      }
      const query: LiveQuery = parsed.data;
      const language = query.languageCode === 'auto' ? undefined : query.languageCode;
      this.engine.assertLanguage(language);
      if (this.#running.size >= this.options.maxSessions) {
        throw new AppError('SPEECH_BUSY', 'Every live transcription slot is taken; try again shortly.');
      }
      const sessionId = newId('live');
      const metering = new LiveMetering(
        this.meter,
        caller,
        liveProduct(query.source),
        sessionId,
        this.options.meteringSliceSeconds,
        LIVE_SAMPLE_RATE,
        (error) => {
          const { code, message } =
            error instanceof AppError ? error : new AppError('INTERNAL_ERROR', 'Metering failed.');
          void session.stop(
            code === 'INSUFFICIENT_CREDIT' || code === 'API_KEY_CAP_REACHED'
              ? liveCloseCodes.paymentRequired
              : liveCloseCodes.internalError,
            closeReason(code, message),
          );
        },
      );
      await metering.assertAffordable();
      const recogniser = this.engine.openStream({
        ...(language ? { language } : {}),
        endpoints: query.endpoints,
        onSegment: (segment) => session.sendSegment(segment),
      });
      if (session.begin({ query, recogniser, metering })) this.#running.add(session);
    } catch (error) {
      session.refuse(toAppErrorFromSpeech(error));
    }
  }

  /** Shutdown: every session's text is made final and sent, then each socket closes with 1012. */
  async shutdown(): Promise<void> {
    this.#shuttingDown = true;
    await Promise.all(
      [...this.#sessions].map((session) =>
        session.stop(liveCloseCodes.shuttingDown, closeReason('NOT_READY', 'The server is shutting down.')),
      ),
    );
  }
}
