import { describe, expect, it } from 'vitest';
import { formatTimestamp, pageTurnsOf, transcriptText, wordAt } from './transcriptTurns';

const word = (start: number, text: string, speaker?: string, confidence = 0.9) => ({
  start,
  end: start + 0.4,
  text,
  confidence,
  speaker,
});

const diarized = {
  segments: [
    {
      id: 0,
      start: 0.4,
      end: 1.2,
      text: 'Are you',
      speaker: 'S1',
      words: [word(0.4, 'Are', 'S1'), word(0.8, 'you', 'S1')],
    },
    { id: 1, start: 1.3, end: 2.1, text: 'coming?', speaker: 'S1', words: [word(1.3, ' coming?', 'S1')] },
    { id: 2, start: 2.6, end: 4.0, text: 'Yes.', speaker: 'S2', words: [word(2.6, 'Yes.', 'S2', 0.3)] },
    { id: 3, start: 4.2, end: 5.0, text: 'Good.', speaker: 'S1', words: [word(4.2, 'Good.', 'S1')] },
  ],
};

describe('pageTurnsOf', () => {
  it("joins a speaker's consecutive segments into one turn and numbers words across turns", () => {
    const turns = pageTurnsOf(diarized);
    expect(
      turns.map((turn) => [
        turn.speaker,
        turn.start,
        turn.end,
        turn.words.map((w) => `${w.index}:${w.text}`),
      ]),
    ).toEqual([
      ['S1', 0.4, 2.1, ['0:Are', '1:you', '2:coming?']],
      ['S2', 2.6, 4.0, ['3:Yes.']],
      ['S1', 4.2, 5.0, ['4:Good.']],
    ]);
  });

  it('keeps each segment apart without diarization, and makes a segment without words one word', () => {
    const turns = pageTurnsOf({
      segments: [
        { id: 0, start: 0, end: 2, text: ' Hello there.', words: [] },
        { id: 1, start: 2, end: 3, text: 'Bye.', words: [] },
      ],
    });
    expect(turns).toEqual([
      {
        speaker: null,
        start: 0,
        end: 2,
        words: [{ index: 0, start: 0, end: 2, text: 'Hello there.', confidence: 1 }],
      },
      {
        speaker: null,
        start: 2,
        end: 3,
        words: [{ index: 1, start: 2, end: 3, text: 'Bye.', confidence: 1 }],
      },
    ]);
  });
});

describe('wordAt', () => {
  const words = pageTurnsOf(diarized).flatMap((turn) => turn.words);
  it('finds the word being played, keeps it through a pause, and none before the first', () => {
    expect(wordAt(words, 0)).toBe(-1);
    expect(wordAt(words, 0.5)).toBe(0);
    expect(wordAt(words, 0.8)).toBe(1);
    expect(wordAt(words, 2.3)).toBe(2);
    expect(wordAt(words, 60)).toBe(4);
  });
});

describe('transcriptText', () => {
  it('writes one paragraph per turn with the speaker names', () => {
    const text = transcriptText(pageTurnsOf(diarized), [
      { id: 'S1', name: 'Anna' },
      { id: 'S2', name: 'S2' },
    ]);
    expect(text).toBe('Anna: Are you coming?\n\nS2: Yes.\n\nAnna: Good.');
  });
});

describe('formatTimestamp', () => {
  it('writes minutes and seconds, hours only when there are some', () => {
    expect(formatTimestamp(75.4)).toBe('1:15');
    expect(formatTimestamp(3725)).toBe('1:02:05');
  });
});
