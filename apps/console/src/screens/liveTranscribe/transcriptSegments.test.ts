import { describe, expect, it } from 'vitest';
import { applySegmentMessage, type TranscriptSegment, transcriptText } from './transcriptSegments';

describe('transcript segments (spec §3)', () => {
  it('replaces the last segment when the id is the same, appends on a new id', () => {
    let segments: TranscriptSegment[] = [];
    segments = applySegmentMessage(segments, { type: 'partial', segment: 0, text: 'hello' });
    segments = applySegmentMessage(segments, { type: 'partial', segment: 0, text: 'hello wor' });
    segments = applySegmentMessage(segments, { type: 'final', segment: 0, text: 'Hello world.' });
    expect(segments).toEqual([{ id: 0, text: 'Hello world.', final: true }]);
    segments = applySegmentMessage(segments, { type: 'partial', segment: 1, text: 'how' });
    segments = applySegmentMessage(segments, { type: 'partial', segment: 1, text: 'how are you' });
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
    expect(applySegmentMessage(segments, { type: 'final', segment: 0, text: 'again' })).toHaveLength(3);
  });

  it('does not change the list it was given', () => {
    const segments: TranscriptSegment[] = [{ id: 0, text: 'a', final: false }];
    applySegmentMessage(segments, { type: 'final', segment: 0, text: 'b' });
    expect(segments).toEqual([{ id: 0, text: 'a', final: false }]);
  });

  it('shows every segment followed by a newline', () => {
    expect(transcriptText([])).toBe('');
    expect(
      transcriptText([
        { id: 0, text: 'Hello world.', final: true },
        { id: 1, text: 'How are you?', final: false },
      ]),
    ).toBe('Hello world.\nHow are you?\n');
  });
});
