import { describe, expect, it } from 'vitest';
import { applyLiveSegmentMessage, liveTranscriptLines, type LiveTranscriptSegment } from './live.js';

describe('live transcript segments (spec §3)', () => {
  it('replaces the last segment when the id is the same, appends on a new id', () => {
    let segments: LiveTranscriptSegment[] = [];
    segments = applyLiveSegmentMessage(segments, { type: 'partial', segment: 0, text: 'hello' });
    segments = applyLiveSegmentMessage(segments, { type: 'partial', segment: 0, text: 'hello wor' });
    segments = applyLiveSegmentMessage(segments, { type: 'final', segment: 0, text: 'Hello world.' });
    expect(segments).toEqual([{ id: 0, text: 'Hello world.', final: true }]);
    segments = applyLiveSegmentMessage(segments, { type: 'partial', segment: 1, text: 'how' });
    segments = applyLiveSegmentMessage(segments, { type: 'partial', segment: 1, text: 'how are you' });
    expect(segments).toEqual([
      { id: 0, text: 'Hello world.', final: true },
      { id: 1, text: 'how are you', final: false },
    ]);
  });

  it('compares with the last segment only: an earlier id appends again', () => {
    const segments = [
      { id: 0, text: 'one', final: true },
      { id: 1, text: 'two', final: true },
    ];
    expect(applyLiveSegmentMessage(segments, { type: 'final', segment: 0, text: 'again' })).toHaveLength(3);
  });

  it('does not change the list it was given', () => {
    const segments: LiveTranscriptSegment[] = [{ id: 0, text: 'a', final: false }];
    applyLiveSegmentMessage(segments, { type: 'final', segment: 0, text: 'b' });
    expect(segments).toEqual([{ id: 0, text: 'a', final: false }]);
  });

  it('reads a whole session as the lines a client shows, skipping `connected`', () => {
    expect(
      liveTranscriptLines([
        { type: 'connected' },
        { type: 'partial', segment: 0, text: 'ask not' },
        { type: 'final', segment: 0, text: 'Ask not what your country can do for you.' },
        { type: 'partial', segment: 1, text: 'ask what' },
      ]),
    ).toEqual(['Ask not what your country can do for you.', 'ask what']);
  });
});
