/**
 * The Live transcribe session (spec §4 "Live session states"): configure (initial), starting,
 * running, blocked, error, reset. Pure: the screen performs what a state asks for (recording, the
 * socket, sending a file) and reports back with events.
 */
import type { LiveSource } from '@verbatim/contracts';

export type LiveStatus = 'configure' | 'starting' | 'running' | 'blocked' | 'error' | 'reset';

export interface LiveSessionState {
  status: LiveStatus;
  /** What the session started with; null before the first start and after a reset. */
  source: LiveSource | null;
  /** The chosen microphone (device id); empty when there is none. */
  micId: string;
  /** Seconds counted while the session is active (spec §4: one tick per second). */
  elapsedSeconds: number;
  /** The streaming connection is still open after Stop or a file's end (the server flushing). */
  finishing: boolean;
}

export type LiveSessionEvent =
  /** Start (or Upload) pressed with a valid form. */
  | { type: 'start'; source: LiveSource }
  /** Recording could not start (permission denied or otherwise): no session starts. */
  | { type: 'recordingFailed' }
  /** The permission check said denied, or the browser revoked the permission. */
  | { type: 'permissionDenied' }
  /** The socket is open and the server said `connected`. */
  | { type: 'connected' }
  /** Opening the socket or processing the file failed. */
  | { type: 'failed' }
  /** Every chunk of the picked file is sent. */
  | { type: 'fileSent' }
  /** Stop pressed. */
  | { type: 'stop' }
  /** The socket closed (normally after Done, or because the server ended the session). */
  | { type: 'closed' }
  /** Reset pressed. */
  | { type: 'reset' }
  | { type: 'micChanged'; micId: string }
  | { type: 'tick' };

export const initialLiveSession: LiveSessionState = {
  status: 'configure',
  source: null,
  micId: '',
  elapsedSeconds: 0,
  finishing: false,
};

/** Spec §4: inputs are editable only in configure and blocked. */
export function inputsEditable(status: LiveStatus): boolean {
  return status === 'configure' || status === 'blocked';
}

/** The timer runs while the session is active. */
export function timerRunning(status: LiveStatus): boolean {
  return status === 'starting' || status === 'running';
}

export function liveSessionReducer(state: LiveSessionState, event: LiveSessionEvent): LiveSessionState {
  switch (event.type) {
    case 'start':
      return inputsEditable(state.status)
        ? { ...state, status: 'starting', source: event.source, elapsedSeconds: 0, finishing: false }
        : state;
    case 'recordingFailed':
      return state.status === 'starting' ? { ...state, status: 'blocked', source: null } : state;
    case 'permissionDenied':
      // A session in progress keeps its recording; the next start finds the permission missing.
      return state.status === 'configure' ? { ...state, status: 'blocked' } : state;
    case 'connected':
      return state.status === 'starting' ? { ...state, status: 'running' } : state;
    case 'failed':
      return state.status === 'starting' || state.status === 'running'
        ? { ...state, status: 'error', finishing: false }
        : state;
    case 'fileSent':
      // Spec §4: for a file it goes straight to reset once the file has been sent; the timer stops.
      return state.status === 'running' && state.source === 'file'
        ? { ...state, status: 'reset', finishing: true }
        : state;
    case 'stop':
      // Spec §4: Stop ends recording, sends Done, goes to reset, stops and resets the timer.
      return state.status === 'running' || state.status === 'starting'
        ? { ...state, status: 'reset', elapsedSeconds: 0, finishing: state.status === 'running' }
        : state;
    case 'closed':
      if (state.status === 'running') return { ...state, status: 'reset', finishing: false };
      if (state.status === 'starting') return { ...state, status: 'error', finishing: false };
      return { ...state, finishing: false };
    case 'reset':
      // Spec §4: clears the text and returns to configure (the screen clears the text and the file).
      return state.status === 'reset' || state.status === 'error'
        ? { ...state, status: 'configure', source: null, elapsedSeconds: 0, finishing: false }
        : state;
    case 'micChanged':
      // Spec §4: in configure it updates the selection; in blocked it returns to configure.
      if (state.status === 'configure') return { ...state, micId: event.micId };
      if (state.status === 'blocked') return { ...state, status: 'configure', micId: event.micId };
      return state;
    case 'tick':
      return timerRunning(state.status) ? { ...state, elapsedSeconds: state.elapsedSeconds + 1 } : state;
  }
}
