import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import SrtParser from 'srt-parser-2';
import webvtt, { type WebVttNode } from 'webvtt-parser';
import { describe, expect, it } from 'vitest';

import type { Transcript, TranscriptSegment, TranscriptWord } from '../transcript.js';
import { formatTranscript } from './format-transcript.js';
import { renderJson } from './render-json.js';
import { renderSrt } from './render-srt.js';
import { paragraphPauseSeconds, renderText } from './render-text.js';
import { renderVtt } from './render-vtt.js';
import { buildSubtitleCues, subtitleLimits } from './subtitle-cues.js';
import { formatTimestamp } from './timestamps.js';

// The parser's built-in entity table lacks the `;` forms: give it the full HTML table it ships.
const htmlEntities = JSON.parse(
  readFileSync(createRequire(import.meta.url).resolve('webvtt-parser/html-entities.json'), 'utf8'),
) as Record<string, string>;

function words(spec: string, start: number, step = 0.3, gap = 0.05): TranscriptWord[] {
  return spec.split(' ').map((text, index) => ({
    text: ` ${text}`,
    start: Number((start + index * step).toFixed(3)),
    end: Number((start + index * step + step - gap).toFixed(3)),
    confidence: 0.9,
  }));
}

function segment(id: number, start: number, end: number, text: string, segmentWords: TranscriptWord[] = []) {
  return { id, start, end, text, words: segmentWords } satisfies TranscriptSegment;
}

function transcriptOf(segments: TranscriptSegment[]): Transcript {
  return { language: 'en', duration: Math.max(0, ...segments.map((s) => s.end)), segments };
}

function withWords(id: number, start: number, text: string, step = 0.3): TranscriptSegment {
  const segmentWords = words(text, start, step);
  return segment(id, start, segmentWords.at(-1)?.end ?? start, text, segmentWords);
}

describe('renderText', () => {
  it('joins segments with spaces and starts a paragraph after a pause of 2 s or more', () => {
    expect(paragraphPauseSeconds).toBe(2);
    const transcript = transcriptOf([
      segment(0, 0, 1.5, 'Hello there.'),
      segment(1, 1.8, 3, '  How are\nyou? '),
      segment(2, 4.99, 6, 'Fine.'), // 1.99 s pause: same paragraph
      segment(3, 8, 9, 'Thanks.'), // 2.00 s pause: new paragraph
      segment(4, 9.5, 10, '   '),
      segment(5, 10.2, 11, 'Bye.'),
    ]);
    expect(renderText(transcript)).toBe('Hello there. How are you? Fine.\n\nThanks. Bye.\n');
  });

  it('renders an empty transcript as an empty string', () => {
    expect(renderText(transcriptOf([]))).toBe('');
    expect(renderText(transcriptOf([segment(0, 0, 1, ' ')]))).toBe('');
  });
});

describe('renderJson', () => {
  it('is compact JSON of the transcript, without properties the caller attached', () => {
    const transcript = transcriptOf([withWords(0, 0.5, 'Grüß Gott.')]);
    const extra = {
      ...transcript,
      internal: 'secret',
      segments: [{ ...transcript.segments[0], tokens: [1, 2] }],
    };
    const body = renderJson(extra as Transcript);
    expect(body).not.toContain('\n');
    expect(body).not.toMatch(/secret|tokens/);
    expect(JSON.parse(body)).toEqual(transcript);
    expect(body).toBe(
      '{"language":"en","duration":1.05,"segments":[{"id":0,"start":0.5,"end":1.05,"text":"Grüß Gott.","words":' +
        '[{"start":0.5,"end":0.75,"text":" Grüß","confidence":0.9},{"start":0.8,"end":1.05,"text":" Gott.","confidence":0.9}]}]}',
    );
  });
});

describe('timestamps', () => {
  it('are exact to the millisecond with at least two digits of hours', () => {
    expect(formatTimestamp(0, ',')).toBe('00:00:00,000');
    expect(formatTimestamp(1234, ',')).toBe('00:00:01,234');
    expect(formatTimestamp(3_723_004, '.')).toBe('01:02:03.004');
    expect(formatTimestamp(100 * 3_600_000 + 59_999, '.')).toBe('100:00:59.999');
  });
});

describe('renderSrt and renderVtt (golden)', () => {
  it('renders a short sentence as one cue on one line', () => {
    const transcript = transcriptOf([withWords(0, 1.234, 'Hello world. This is a test.')]);
    expect(renderSrt(transcript)).toBe('1\n00:00:01,234 --> 00:00:02,984\nHello world. This is a test.\n');
    expect(renderVtt(transcript)).toBe(
      'WEBVTT\n\n00:00:01.234 --> 00:00:02.984\nHello world. This is a test.\n',
    );
  });

  it('breaks a cue after a sentence, then lines after a comma, never inside a word', () => {
    const transcript = transcriptOf([
      withWords(
        0,
        0,
        'The quick brown fox jumps over the lazy dog. Then it ran away into the deep forest, never again.',
        0.25,
      ),
    ]);
    expect(renderSrt(transcript)).toBe(
      [
        '1',
        '00:00:00,000 --> 00:00:02,200',
        // 44 characters: two lines, as even as they can be.
        'The quick brown fox',
        'jumps over the lazy dog.',
        '',
        '2',
        '00:00:02,250 --> 00:00:04,700',
        // After the comma, although "Then it ran away into the / deep forest, never again." is more even.
        'Then it ran away into the deep forest,',
        'never again.',
        '',
      ].join('\n'),
    );
  });

  it('numbers SRT cues from 1 and separates them by a blank line; VTT escapes & < >', () => {
    const transcript = transcriptOf([withWords(0, 0, 'Is a < b?'), withWords(1, 2, 'Yes, & b > a.')]);
    expect(renderSrt(transcript)).toBe(
      '1\n00:00:00,000 --> 00:00:01,150\nIs a < b?\n\n2\n00:00:02,000 --> 00:00:03,450\nYes, & b > a.\n',
    );
    expect(renderVtt(transcript)).toBe(
      'WEBVTT\n\n00:00:00.000 --> 00:00:01.150\nIs a &lt; b?\n\n00:00:02.000 --> 00:00:03.450\nYes, &amp; b &gt; a.\n',
    );
  });

  it('gives a word longer than a line a line of its own', () => {
    const long = 'Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch-station';
    const transcript = transcriptOf([withWords(0, 0, `Welcome to ${long} today`, 0.5)]);
    expect(buildSubtitleCues(transcript).map((cue) => cue.lines)).toEqual([['Welcome to', long], ['today']]);
  });

  it('attaches punctuation tokens to the word before them', () => {
    const segmentWords = [
      { text: ' Hello', start: 0, end: 0.4, confidence: 1 },
      { text: ',', start: 0.4, end: 0.45, confidence: 1 },
      { text: ' world', start: 0.5, end: 0.9, confidence: 1 },
      { text: '!', start: 0.9, end: 1, confidence: 1 },
    ];
    expect(renderSrt(transcriptOf([segment(0, 0, 1, 'Hello, world!', segmentWords)]))).toBe(
      '1\n00:00:00,000 --> 00:00:01,000\nHello, world!\n',
    );
  });

  it('splits a segment without words over its time in proportion to the characters', () => {
    // 12 s for 96 characters (97 with the spaces after each word): the first 7 s reach exactly to the
    // end of the first sentence (56 characters: 12 s × 56 / 97 = 6.928 s).
    const text =
      'Ceci est une phrase assez longue, prononcée sans pause. Elle dure douze secondes à peu près ici.';
    const cues = buildSubtitleCues(transcriptOf([segment(0, 10, 22, text)]));
    expect(cues).toEqual([
      {
        startMs: 10_000,
        endMs: 16_928,
        lines: ['Ceci est une phrase assez longue,', 'prononcée sans pause.'],
      },
      { startMs: 16_928, endMs: 22_000, lines: ['Elle dure douze secondes à peu près ici.'] },
    ]);
  });
});

describe('subtitle cues (edge cases)', () => {
  it('renders an empty transcript as an empty SRT and a bare WebVTT header', () => {
    expect(renderSrt(transcriptOf([]))).toBe('');
    expect(renderVtt(transcriptOf([]))).toBe('WEBVTT\n');
  });

  it('keeps a single word lasting over 7 s to a 7 s cue', () => {
    const cues = buildSubtitleCues(
      transcriptOf([segment(0, 1, 12, 'Hmmm', [{ text: 'Hmmm', start: 1, end: 12, confidence: 0.5 }])]),
    );
    expect(cues).toEqual([{ startMs: 1000, endMs: 8000, lines: ['Hmmm'] }]);
  });

  it('cuts more than 84 characters spoken in 2 s into several cues within the limits', () => {
    const text =
      'supercalifragilistic expialidocious words tumble out rapidly when everyone talks over each other';
    expect(text.length).toBeGreaterThan(84);
    const cues = buildSubtitleCues(transcriptOf([withWords(0, 5, text, 2 / text.split(' ').length)]));
    expect(cues.length).toBeGreaterThanOrEqual(2);
    expectWithinLimits(cues);
    expect(cues.flatMap((cue) => cue.lines).join(' ')).toBe(text);
  });

  it('never overlaps cues or ends one before it starts, even when the recogniser overlaps words', () => {
    const overlapping = transcriptOf([
      segment(0, 0, 2, 'first segment', [
        { text: 'first', start: 0, end: 1.5, confidence: 1 },
        { text: 'segment', start: 1.4, end: 2.5, confidence: 1 },
      ]),
      segment(1, 1.8, 3, 'second one', [
        { text: 'second', start: 1.8, end: 1.7, confidence: 1 },
        { text: 'one', start: 1.9, end: 3, confidence: 1 },
      ]),
    ]);
    const cues = buildSubtitleCues(overlapping);
    expect(cues).toEqual([
      { startMs: 0, endMs: 2500, lines: ['first segment'] },
      { startMs: 2500, endMs: 3000, lines: ['second one'] },
    ]);
  });

  it('gives a last cue timed at the very end of the audio its minimum before the end, not after it', () => {
    const atTheEnd = {
      ...transcriptOf([
        segment(0, 0, 4, 'Pity the world.', [
          { text: 'Pity', start: 0.5, end: 1, confidence: 1 },
          { text: 'the', start: 1, end: 1.2, confidence: 1 },
          { text: 'world.', start: 1.2, end: 4, confidence: 1 },
        ]),
        segment(1, 4, 4, 'And thee.', [
          { text: 'And', start: 4, end: 4, confidence: 1 },
          { text: 'thee.', start: 4, end: 4, confidence: 1 },
        ]),
      ]),
      duration: 4,
    };
    expect(buildSubtitleCues(atTheEnd)).toEqual([
      { startMs: 500, endMs: 3600, lines: ['Pity the world.'] },
      { startMs: 3600, endMs: 4000, lines: ['And thee.'] },
    ]);
    // Without room before it (or without a known duration) it still lasts the minimum, after its start.
    expect(buildSubtitleCues({ ...atTheEnd, duration: undefined }).at(-1)).toMatchObject({
      startMs: 4000,
      endMs: 4400,
    });
  });

  it('keeps accented and German letters intact', () => {
    const transcript = transcriptOf([withWords(0, 0, 'Ça coûte cinq euros à la Straße, naïve Éloïse.')]);
    expect(renderSrt(transcript)).toContain('Ça coûte cinq euros à la Straße,\nnaïve Éloïse.\n');
    expect(formatTranscript(transcript, 'text').body).toBe(
      'Ça coûte cinq euros à la Straße, naïve Éloïse.\n',
    );
  });
});

describe('formatTranscript', () => {
  it('gives body, content type and file extension for each format', () => {
    const transcript = transcriptOf([withWords(0, 0, 'One two.')]);
    expect(formatTranscript(transcript, 'json')).toMatchObject({
      contentType: 'application/json',
      fileExtension: 'json',
    });
    expect(formatTranscript(transcript, 'text')).toEqual({
      body: 'One two.\n',
      contentType: 'text/plain; charset=utf-8',
      fileExtension: 'txt',
    });
    expect(formatTranscript(transcript, 'srt')).toMatchObject({
      contentType: 'application/x-subrip; charset=utf-8',
      fileExtension: 'srt',
    });
    expect(formatTranscript(transcript, 'vtt')).toMatchObject({
      contentType: 'text/vtt; charset=utf-8',
      fileExtension: 'vtt',
    });
  });
});

describe('parse-back with real SRT and WebVTT parsers', () => {
  const transcript = randomTranscript(20260123);

  it('round-trips every cue through srt-parser-2', () => {
    const cues = buildSubtitleCues(transcript);
    expectWithinLimits(cues);
    const parsed = new SrtParser().fromSrt(renderSrt(transcript));
    expect(parsed).toHaveLength(cues.length);
    parsed.forEach((cue, index) => {
      const expected = cues[index];
      expect(cue.id).toBe(String(index + 1));
      expect(Math.round(cue.startSeconds * 1000)).toBe(expected?.startMs);
      expect(Math.round(cue.endSeconds * 1000)).toBe(expected?.endMs);
      expect(cue.text).toBe(expected?.lines.join('\n'));
    });
  });

  it('round-trips every cue through the W3C WebVTT parser without errors', () => {
    const cues = buildSubtitleCues(transcript);
    const parsed = new webvtt.WebVTTParser(htmlEntities).parse(renderVtt(transcript));
    expect(parsed.errors).toEqual([]);
    expect(parsed.cues).toHaveLength(cues.length);
    parsed.cues.forEach((cue, index) => {
      const expected = cues[index];
      expect(Math.round(cue.startTime * 1000)).toBe(expected?.startMs);
      expect(Math.round(cue.endTime * 1000)).toBe(expected?.endMs);
      expect(textOf(cue.tree.children)).toBe(expected?.lines.join('\n'));
    });
  });

  it('loses no word and splits none: the cues hold exactly the words, in order', () => {
    const cueText = buildSubtitleCues(transcript)
      .flatMap((cue) => cue.lines)
      .join(' ');
    const wordText = transcript.segments.flatMap((s) => s.words.map((w) => w.text.trim())).join(' ');
    expect(cueText).toBe(wordText);
  });
});

function textOf(nodes: WebVttNode[]): string {
  return nodes
    .map((node) => (node.type === 'text' ? (node.value ?? '') : textOf(node.children ?? [])))
    .join('');
}

function expectWithinLimits(cues: ReturnType<typeof buildSubtitleCues>): void {
  let previousEnd = 0;
  for (const cue of cues) {
    expect(cue.startMs).toBeGreaterThanOrEqual(previousEnd);
    expect(cue.endMs).toBeGreaterThanOrEqual(cue.startMs);
    expect(cue.endMs - cue.startMs).toBeLessThanOrEqual(subtitleLimits.maxCueMilliseconds);
    expect(cue.lines.length).toBeGreaterThanOrEqual(1);
    expect(cue.lines.length).toBeLessThanOrEqual(subtitleLimits.maxLines);
    for (const line of cue.lines) {
      if (line.includes(' ')) expect(line.length).toBeLessThanOrEqual(subtitleLimits.maxLineChars);
    }
    previousEnd = cue.endMs;
  }
}

/** A long transcript with varied words, punctuation, markup characters, pauses and speaking rates. */
function randomTranscript(seed: number): Transcript {
  let state = seed;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  const vocabulary = [
    'the',
    'speech',
    'engine',
    'decodes',
    'recordings',
    'état',
    'Straße',
    'naïve',
    'x<y',
    'R&D',
    '->',
    'a',
    'extraordinarily',
    'I',
    'OK',
    'counterrevolutionaries',
    '2026',
    'l’été',
    '"quoted"',
    'Pneumonoultramicroscopicsilicovolcanoconiosis',
  ];
  const punctuation = ['', '', '', '', '.', ',', '?', '!', ';'];
  const segments: TranscriptSegment[] = [];
  let time = 0.2;
  for (let id = 0; id < 60; id += 1) {
    const segmentWords: TranscriptWord[] = [];
    const count = 1 + Math.floor(random() * 40);
    const start = time;
    for (let index = 0; index < count; index += 1) {
      const text = `${vocabulary[Math.floor(random() * vocabulary.length)]}${punctuation[Math.floor(random() * punctuation.length)]}`;
      const duration = 0.05 + random() * 0.6;
      segmentWords.push({
        text: ` ${text}`,
        start: Math.round(time * 1000) / 1000,
        end: Math.round((time + duration) * 1000) / 1000,
        confidence: random(),
      });
      time += duration + random() * 0.2;
    }
    segments.push(segment(id, start, time, segmentWords.map((w) => w.text).join(''), segmentWords));
    time += random() < 0.2 ? 2 + random() * 3 : random() * 0.5;
  }
  return { language: 'en', duration: time, segments };
}
