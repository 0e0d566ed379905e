import { describe, expect, it } from 'vitest';
import {
  initialLiveSession,
  inputsEditable,
  type LiveSessionEvent,
  type LiveSessionState,
  liveSessionReducer,
  type LiveStatus,
  timerRunning,
} from './liveSessionMachine';

function run(events: LiveSessionEvent[], from: LiveSessionState = initialLiveSession): LiveSessionState {
  return events.reduce(liveSessionReducer, from);
}

const at = (status: LiveStatus, more: Partial<LiveSessionState> = {}): LiveSessionState => ({
  ...initialLiveSession,
  status,
  ...more,
});

describe('live session states (spec §4)', () => {
  it('starts in configure', () => {
    expect(initialLiveSession.status).toBe('configure');
  });

  it('microphone: start → starting → running (connected) → stop → reset with the timer reset, then reset → configure', () => {
    const running = run([
      { type: 'start', source: 'microphone' },
      { type: 'connected' },
      { type: 'tick' },
      { type: 'tick' },
    ]);
    expect(running).toMatchObject({ status: 'running', source: 'microphone', elapsedSeconds: 2 });
    const stopped = liveSessionReducer(running, { type: 'stop' });
    expect(stopped).toMatchObject({ status: 'reset', elapsedSeconds: 0, finishing: true });
    // The server flushes the last final, then closes.
    const closed = liveSessionReducer(stopped, { type: 'closed' });
    expect(closed).toMatchObject({ status: 'reset', finishing: false });
    expect(liveSessionReducer(closed, { type: 'reset' })).toMatchObject({
      status: 'configure',
      source: null,
    });
  });

  it('a recording that fails to start leads to blocked and no session', () => {
    const blocked = run([{ type: 'start', source: 'microphone' }, { type: 'recordingFailed' }]);
    expect(blocked).toMatchObject({ status: 'blocked', source: null });
    // A late connected (there is none, but if) changes nothing.
    expect(liveSessionReducer(blocked, { type: 'connected' }).status).toBe('blocked');
  });

  it('a connection that fails (or closes before connected) gives error; reset returns to configure', () => {
    expect(run([{ type: 'start', source: 'microphone' }, { type: 'failed' }]).status).toBe('error');
    const closedEarly = run([{ type: 'start', source: 'file' }, { type: 'closed' }]);
    expect(closedEarly.status).toBe('error');
    expect(liveSessionReducer(closedEarly, { type: 'reset' }).status).toBe('configure');
  });

  it('file: running goes straight to reset once the file is sent; the timer stops but keeps its value until reset', () => {
    const sent = run([
      { type: 'start', source: 'file' },
      { type: 'connected' },
      { type: 'tick' },
      { type: 'fileSent' },
    ]);
    expect(sent).toMatchObject({ status: 'reset', elapsedSeconds: 1, finishing: true });
    expect(liveSessionReducer(sent, { type: 'tick' }).elapsedSeconds).toBe(1);
    expect(liveSessionReducer(sent, { type: 'reset' })).toMatchObject({
      status: 'configure',
      elapsedSeconds: 0,
    });
    // fileSent means nothing to a microphone session.
    const mic = run([{ type: 'start', source: 'microphone' }, { type: 'connected' }]);
    expect(liveSessionReducer(mic, { type: 'fileSent' }).status).toBe('running');
  });

  it('the server ending a running session leads to reset (the transcript stays to copy)', () => {
    const ended = run([{ type: 'start', source: 'microphone' }, { type: 'connected' }, { type: 'closed' }]);
    expect(ended).toMatchObject({ status: 'reset', finishing: false });
  });

  it('changing the microphone: updates in configure, returns blocked to configure, is ignored otherwise', () => {
    expect(
      liveSessionReducer(at('configure', { micId: 'a' }), { type: 'micChanged', micId: 'b' }),
    ).toMatchObject({
      status: 'configure',
      micId: 'b',
    });
    expect(
      liveSessionReducer(at('blocked', { micId: 'a' }), { type: 'micChanged', micId: 'b' }),
    ).toMatchObject({
      status: 'configure',
      micId: 'b',
    });
    for (const status of ['starting', 'running', 'error', 'reset'] as const) {
      const state = at(status, { micId: 'a' });
      expect(liveSessionReducer(state, { type: 'micChanged', micId: 'b' })).toBe(state);
    }
  });

  it('a denied permission blocks configure; a session in progress is left alone', () => {
    expect(liveSessionReducer(at('configure'), { type: 'permissionDenied' }).status).toBe('blocked');
    expect(liveSessionReducer(at('running'), { type: 'permissionDenied' }).status).toBe('running');
  });

  it('start is accepted only where inputs are editable (configure and blocked)', () => {
    expect(liveSessionReducer(at('blocked'), { type: 'start', source: 'microphone' }).status).toBe(
      'starting',
    );
    for (const status of ['starting', 'running', 'error', 'reset'] as const) {
      const state = at(status);
      expect(liveSessionReducer(state, { type: 'start', source: 'microphone' })).toBe(state);
    }
    expect((['configure', 'blocked'] as const).every(inputsEditable)).toBe(true);
    expect((['starting', 'running', 'error', 'reset'] as const).some(inputsEditable)).toBe(false);
  });

  it('the timer ticks only while starting or running', () => {
    for (const status of ['configure', 'blocked', 'error', 'reset'] as const) {
      expect(timerRunning(status)).toBe(false);
      expect(liveSessionReducer(at(status, { elapsedSeconds: 3 }), { type: 'tick' }).elapsedSeconds).toBe(3);
    }
    expect(liveSessionReducer(at('starting'), { type: 'tick' }).elapsedSeconds).toBe(1);
  });

  it('stop while still starting ends in reset with nothing to flush', () => {
    expect(run([{ type: 'start', source: 'microphone' }, { type: 'stop' }])).toMatchObject({
      status: 'reset',
      finishing: false,
    });
  });

  it('reset is refused while a session runs (Stop comes first)', () => {
    const running = at('running', { source: 'microphone' });
    expect(liveSessionReducer(running, { type: 'reset' })).toBe(running);
  });
});
