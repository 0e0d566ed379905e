import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import SrtParser from 'srt-parser-2';
import webvtt, { type WebVttNode } from 'webvtt-parser';
import { describe, expect, it } from 'vitest';

import type { Transcript, TranscriptWord } from '../transcript.js';
import { renderJson } from './render-json.js';
import { renderSrt } from './render-srt.js';
import { renderText } from './render-text.js';
import { renderVtt } from './render-vtt.js';

const htmlEntities = JSON.parse(
  readFileSync(createRequire(import.meta.url).resolve('webvtt-parser/html-entities.json'), 'utf8'),
) as Record<string, string>;

function words(text: string, start: number, speaker: string): TranscriptWord[] {
  return text.split(' ').map((word, index) => ({
    text: word,
    start: start + index * 0.4,
    end: start + index * 0.4 + 0.35,
    confidence: 0.9,
    speaker,
  }));
}

function diarized(names: Record<string, string> = {}): Transcript {
  const turns: [string, number, string][] = [
    ['S1', 0.5, 'Are you coming tonight?'],
    ['S2', 2.6, 'Yes, at eight.'],
    ['S2', 4.0, 'I will bring the cake.'],
    ['S1', 7.0, 'Great & thanks.'],
  ];
  return {
    language: 'en',
    duration: 9,
    segments: turns.map(([speaker, start, text], id) => {
      const segmentWords = words(text, start, speaker);
      return {
        id,
        start,
        end: segmentWords.at(-1)?.end ?? start,
        text,
        words: segmentWords,
        speaker,
      };
    }),
    speakers: [
      { id: 'S1', name: names.S1 ?? 'S1' },
      { id: 'S2', name: names.S2 ?? 'S2' },
    ],
    speakerTurns: [
      { speaker: 'S1', start: 0.4, end: 2.5 },
      { speaker: 'S2', start: 2.5, end: 6.5 },
      { speaker: 'S1', start: 6.9, end: 8.5 },
    ],
  };
}

function textOf(nodes: WebVttNode[]): string {
  return nodes
    .map((node) => (node.type === 'text' ? (node.value ?? '') : textOf(node.children ?? [])))
    .join('');
}

describe('speakers in every format', () => {
  it('text: one paragraph per turn, each starting with the speaker (or its name)', () => {
    expect(renderText(diarized())).toBe(
      'S1: Are you coming tonight?\n\nS2: Yes, at eight. I will bring the cake.\n\nS1: Great & thanks.\n',
    );
    expect(renderText(diarized({ S1: 'Anna' }))).toMatch(/^Anna: Are you coming tonight\?\n\nS2: Yes/);
  });

  it('srt: each cue starts with its speaker, and parses', () => {
    const body = renderSrt(diarized({ S2: 'Bob' }));
    const cues = new SrtParser().fromSrt(body);
    expect(cues.map((cue) => cue.text)).toEqual([
      'S1: Are you coming tonight?',
      'Bob: Yes, at eight.',
      'Bob: I will bring the cake.',
      'S1: Great & thanks.',
    ]);
  });

  it('vtt: each cue is a voice span of its speaker, escaped, and parses without errors', () => {
    const body = renderVtt(diarized({ S1: 'Anna & co' }));
    expect(body).toContain('<v Anna &amp; co>Are you coming tonight?</v>');
    expect(body).toContain('<v S2>Yes, at eight.</v>');
    const parsed = new webvtt.WebVTTParser(htmlEntities).parse(body);
    expect(parsed.errors).toEqual([]);
    const voices = parsed.cues.map((cue) => {
      const voice = cue.tree.children[0];
      return [voice?.name, voice?.value, textOf(voice?.children ?? [])];
    });
    expect(voices).toEqual([
      ['v', 'Anna &amp; co', 'Are you coming tonight?'],
      ['v', 'S2', 'Yes, at eight.'],
      ['v', 'S2', 'I will bring the cake.'],
      ['v', 'Anna &amp; co', 'Great & thanks.'],
    ]);
  });

  it('json: speaker of every segment and word, the speakers with their names, the turns', () => {
    const transcript = diarized({ S1: 'Anna' });
    const parsed = JSON.parse(renderJson(transcript)) as Transcript;
    expect(parsed).toEqual(transcript);
    expect(
      parsed.segments.every((segment) => segment.words.every((w) => w.speaker === segment.speaker)),
    ).toBe(true);
  });

  it('a transcript without speakers renders as before: no prefix, no voice span, no speaker fields', () => {
    const plain = diarized();
    delete plain.speakers;
    delete plain.speakerTurns;
    for (const segment of plain.segments) {
      delete segment.speaker;
      for (const word of segment.words) delete word.speaker;
    }
    expect(renderText(plain)).toBe(
      'Are you coming tonight? Yes, at eight. I will bring the cake. Great & thanks.\n',
    );
    expect(renderVtt(plain)).not.toContain('<v');
    expect(renderSrt(plain)).not.toContain('S1');
    expect(renderJson(plain)).not.toContain('speaker');
  });
});
