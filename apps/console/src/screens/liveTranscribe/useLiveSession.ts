import type { LiveCloseReason, LiveTranscriptSegment } from '@verbatim/contracts';
import { applyLiveSegmentMessage, liveCloseCodes } from '@verbatim/contracts';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { apiAuth } from '../../api/apiAuth';
import { decodeToStreamingFormat, sendInRealTime } from './audio/fileAudio';
import { isPermissionRefusal, type MicrophoneCapture, startMicrophoneCapture } from './audio/microphone';
import { LiveConnection, liveSocketUrl } from './liveConnection';
import { initialLiveSession, liveSessionReducer, timerRunning } from './liveSessionMachine';

export interface LiveStartRequest {
  languageCode: string;
  endpoints: boolean;
  /** The microphone to record, when no file is given. */
  micId: string;
  file: File | null;
}

/** Spec §9: the timer ticks once a second. */
const tickMs = 1000;

/**
 * Runs Live transcribe sessions (spec §4): the state machine, the recording or the file, the
 * streaming connection and the segments it brings.
 */
export function useLiveSession({ onRecordingRefused }: { onRecordingRefused: () => void }) {
  const [state, dispatch] = useReducer(liveSessionReducer, initialLiveSession);
  const [segments, setSegments] = useState<LiveTranscriptSegment[]>([]);
  /** Why the server ended (or refused) the last session, when it said. */
  const [endReason, setEndReason] = useState<LiveCloseReason | undefined>();
  const connection = useRef<LiveConnection | undefined>(undefined);
  const capture = useRef<MicrophoneCapture | undefined>(undefined);
  const fileSending = useRef<AbortController | undefined>(undefined);
  /** Counts sessions, so the callbacks of one that ended change nothing. */
  const sessionNumber = useRef(0);
  /** The session Stop was pressed in: one still starting its recording must not go on. */
  const stoppedSession = useRef(-1);

  const stopCapture = useCallback(async () => {
    const current = capture.current;
    capture.current = undefined;
    await current?.stop();
  }, []);

  const release = useCallback(() => {
    sessionNumber.current += 1;
    fileSending.current?.abort();
    fileSending.current = undefined;
    void stopCapture();
    connection.current?.close();
    connection.current = undefined;
  }, [stopCapture]);

  useEffect(() => release, [release]);

  useEffect(() => {
    if (!timerRunning(state.status)) return;
    const timer = setInterval(() => dispatch({ type: 'tick' }), tickMs);
    return () => clearInterval(timer);
  }, [state.status]);

  const start = useCallback(
    async (request: LiveStartRequest) => {
      release();
      const session = sessionNumber.current;
      const current = () => sessionNumber.current === session;
      const source = request.file ? 'file' : 'microphone';
      dispatch({ type: 'start', source });
      setSegments([]);
      setEndReason(undefined);

      // Spec §4: for a microphone, recording starts first; if it fails no session starts.
      if (!request.file) {
        try {
          const started = await startMicrophoneCapture(request.micId, (samples) =>
            connection.current?.send(samples),
          );
          if (!current() || stoppedSession.current === session) return void started.stop();
          capture.current = started;
        } catch (error) {
          if (!current()) return;
          console.warn('live transcription: recording did not start', error);
          if (isPermissionRefusal(error)) onRecordingRefused();
          dispatch({ type: 'recordingFailed' });
          return;
        }
      }

      const file = request.file;
      try {
        const opened = new LiveConnection(
          liveSocketUrl(window.location, {
            accessToken: apiAuth()?.accessToken(),
            languageCode: request.languageCode,
            endpoints: request.endpoints,
            source,
          }),
          {
            onConnected: () => {
              if (!current()) return;
              dispatch({ type: 'connected' });
              if (file) void sendFile(file, opened);
            },
            onSegment: (message) => {
              if (current()) setSegments((shown) => applyLiveSegmentMessage(shown, message));
            },
            onClose: ({ code, reason }) => {
              if (!current()) return;
              connection.current = undefined;
              fileSending.current?.abort();
              void stopCapture();
              if (code !== liveCloseCodes.normal) setEndReason(reason);
              dispatch({ type: 'closed' });
            },
          },
        );
        connection.current = opened;
      } catch (error) {
        console.warn('live transcription: the connection could not be opened', error);
        void stopCapture();
        dispatch({ type: 'failed' });
      }

      // Spec §4: once ready, the file is decoded, resampled and sent; then the session is reset.
      async function sendFile(picked: File, opened: LiveConnection) {
        const controller = new AbortController();
        fileSending.current = controller;
        try {
          const samples = await decodeToStreamingFormat(picked);
          await sendInRealTime(
            samples,
            { send: (chunk) => opened.send(chunk), bufferedAmount: () => opened.bufferedAmount },
            controller.signal,
          );
          if (!current()) return;
          opened.finish();
          dispatch({ type: 'fileSent' });
        } catch (error) {
          if (controller.signal.aborted || !current()) return;
          console.warn('live transcription: the file could not be sent', error);
          opened.close();
          dispatch({ type: 'failed' });
        }
      }
    },
    [release, stopCapture, onRecordingRefused],
  );

  /** Spec §4 Stop: stops recording, ends the stream with Done, and keeps the transcript. */
  const stop = useCallback(async () => {
    const session = sessionNumber.current;
    stoppedSession.current = session;
    dispatch({ type: 'stop' });
    fileSending.current?.abort();
    fileSending.current = undefined;
    try {
      // The frames the worklet still holds go out before Done.
      await stopCapture();
    } finally {
      if (sessionNumber.current === session) connection.current?.finish();
    }
  }, [stopCapture]);

  /** Spec §4 Reset: clears the text and returns to configure; any connection still open closes. */
  const reset = useCallback(() => {
    release();
    dispatch({ type: 'reset' });
    setSegments([]);
    setEndReason(undefined);
  }, [release]);

  const selectMicrophone = useCallback((micId: string) => dispatch({ type: 'micChanged', micId }), []);
  const permissionDenied = useCallback(() => dispatch({ type: 'permissionDenied' }), []);

  return { state, segments, endReason, start, stop, reset, selectMicrophone, permissionDenied };
}
