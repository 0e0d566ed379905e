import { describe, expect, it } from 'vitest';
import type { Transcript, TranscriptSegment, TranscriptWord } from '../transcript.js';
import { assignSpeakers } from './assign-speakers.js';

function word(text: string, start: number, end: number): TranscriptWord {
  return { text, start, end, confidence: 0.9 };
}

function segment(
  id: number,
  words: TranscriptWord[],
  text = words.map((w) => w.text).join(' '),
): TranscriptSegment {
  return {
    id,
    start: words[0]?.start ?? 0,
    end: words.at(-1)?.end ?? 0,
    text,
    words,
  };
}

function transcript(segments: TranscriptSegment[]): Transcript {
  return { language: 'en', duration: 20, segments };
}

const spoken = (result: Transcript) =>
  result.segments.map((s) => `${s.speaker ?? '?'}: ${s.text} [${s.words.map((w) => w.speaker).join(',')}]`);

describe('assignSpeakers', () => {
  it('gives each word the speaker of its turn, cuts segments at a change, names speakers by first appearance', () => {
    const result = assignSpeakers(
      transcript([
        segment(0, [
          word('Hello', 0.5, 0.9),
          word('there.', 0.9, 1.4),
          word('Hi,', 1.6, 1.9),
          word('Bob.', 1.9, 2.3),
        ]),
      ]),
      // The diarization numbered the second voice 0: ids follow who speaks first in the words.
      [
        { speaker: 1, start: 0.4, end: 1.5 },
        { speaker: 0, start: 1.5, end: 2.5 },
      ],
    );
    expect(spoken(result)).toEqual(['S1: Hello there. [S1,S1]', 'S2: Hi, Bob. [S2,S2]']);
    expect(result.segments.map((s) => [s.id, s.start, s.end])).toEqual([
      [0, 0.5, 1.4],
      [1, 1.6, 2.3],
    ]);
    expect(result.speakers).toEqual([
      { id: 'S1', name: 'S1' },
      { id: 'S2', name: 'S2' },
    ]);
    expect(result.speakerTurns).toEqual([
      { speaker: 'S1', start: 0.4, end: 1.5 },
      { speaker: 'S2', start: 1.5, end: 2.5 },
    ]);
  });

  it('never splits a word at a turn boundary: the word goes to the turn covering most of it', () => {
    const result = assignSpeakers(
      transcript([segment(0, [word('one', 0, 0.5), word('boundary', 0.9, 1.5), word('two', 1.6, 2)])]),
      [
        { speaker: 0, start: 0, end: 1.3 },
        { speaker: 1, start: 1.3, end: 2 },
      ],
    );
    // "boundary" is 0.4 s in the first turn, 0.2 s in the second.
    expect(spoken(result)).toEqual(['S1: one boundary [S1,S1]', 'S2: two [S2]']);
  });

  it('gives a word outside every turn the nearest turn’s speaker', () => {
    const result = assignSpeakers(
      transcript([segment(0, [word('early', 0, 0.3)]), segment(1, [word('late', 9, 9.4)])]),
      [
        { speaker: 0, start: 1, end: 2 },
        { speaker: 1, start: 5, end: 8 },
      ],
    );
    expect(spoken(result)).toEqual(['S1: early [S1]', 'S2: late [S2]']);
  });

  it('keeps the main speaker’s words where another speaker talks over them', () => {
    const result = assignSpeakers(
      transcript([
        segment(0, [
          word('So', 0, 0.3),
          word('the', 0.3, 0.5),
          word('budget', 0.5, 1.0),
          word('is', 1.0, 1.2),
          word('fine.', 1.2, 1.6),
        ]),
      ]),
      [
        { speaker: 0, start: 0, end: 1.7 },
        // "mm-hmm" over "budget is": overlapped speech, both speakers active.
        { speaker: 1, start: 0.5, end: 1.2 },
      ],
    );
    expect(spoken(result)).toEqual(['S1: So the budget is fine. [S1,S1,S1,S1,S1]']);
    expect(result.speakers?.map((s) => s.id)).toEqual(['S1', 'S2']);
    expect(result.speakerTurns?.map((t) => t.speaker)).toEqual(['S1', 'S2']);
  });

  it('gives a segment without words the speaker covering most of it', () => {
    const result = assignSpeakers(
      transcript([{ id: 0, start: 3, end: 6, text: 'No word timings here.', words: [] }]),
      [
        { speaker: 0, start: 0, end: 3.5 },
        { speaker: 1, start: 3.5, end: 7 },
      ],
    );
    // The voice of the text is S1; the other one, heard only before it, is still listed (S2).
    expect(spoken(result)).toEqual(['S1: No word timings here. []']);
    expect(result.speakers?.map((s) => s.id)).toEqual(['S1', 'S2']);
    expect(result.speakerTurns?.map((t) => t.speaker)).toEqual(['S2', 'S1']);
  });

  it('says everything is S1 when the diarization found no turn, and lists speakers heard without words last', () => {
    const none = assignSpeakers(transcript([segment(0, [word('alone', 0, 1)])]), []);
    expect(spoken(none)).toEqual(['S1: alone [S1]']);
    expect(none.speakers).toEqual([{ id: 'S1', name: 'S1' }]);
    expect(none.speakerTurns).toEqual([]);

    const silentThird = assignSpeakers(transcript([segment(0, [word('hi', 2, 2.5)])]), [
      { speaker: 2, start: 0, end: 1 },
      { speaker: 0, start: 2, end: 3 },
    ]);
    expect(silentThird.speakers?.map((s) => s.id)).toEqual(['S1', 'S2']);
    expect(silentThird.speakerTurns).toEqual([
      { speaker: 'S2', start: 0, end: 1 },
      { speaker: 'S1', start: 2, end: 3 },
    ]);
  });

  it('joins the words of a cut segment without spaces in a script written without them', () => {
    const result = assignSpeakers(
      transcript([segment(0, [word('你好', 0, 0.5), word('谢谢', 1, 1.5)], '你好谢谢')]),
      [
        { speaker: 0, start: 0, end: 0.7 },
        { speaker: 1, start: 0.8, end: 1.6 },
      ],
    );
    expect(result.segments.map((s) => s.text)).toEqual(['你好', '谢谢']);
  });
});
