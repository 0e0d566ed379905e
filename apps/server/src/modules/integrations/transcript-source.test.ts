import { describe, expect, it } from 'vitest';
import { formatDuration, transcriptBody, type CrmTranscript } from './transcript-source.js';

const transcript: CrmTranscript = {
  id: 'file_1',
  fileName: 'Q3 <review>.mp3',
  date: new Date('2026-11-20T09:30:00Z'),
  language: 'fr',
  durationSeconds: 3723.4,
  text: 'Bonjour & bienvenue.\nDeuxième ligne.',
  url: 'https://stt.example.com/files?fileId=file_1',
};

describe('transcriptBody', () => {
  it('carries the file name, date, language, duration, a link back and the text, escaped', () => {
    expect(transcriptBody(transcript, 65_536)).toBe(
      '<p><strong>Transcript:</strong> Q3 &#60;review&#62;.mp3<br><strong>Date:</strong> 2026-11-20 09:30 UTC' +
        '<br><strong>Language:</strong> fr<br><strong>Duration:</strong> 1:02:03' +
        '<br><a href="https://stt.example.com/files?fileId=file_1">Open the transcript</a></p>' +
        '<p>Bonjour &#38; bienvenue.<br>Deuxième ligne.</p>',
    );
  });

  it("cuts a long transcript to the provider's limit, saying where the rest is", () => {
    const long = { ...transcript, text: 'word & '.repeat(20_000) };
    const body = transcriptBody(long, 65_536);
    expect(body.length).toBeLessThanOrEqual(65_536);
    expect(body.length).toBeGreaterThan(60_000);
    expect(body).toContain('<strong>Duration:</strong> 1:02:03');
    expect(body).toContain('the rest is at the link above');
    expect(body).not.toMatch(/&#3?$|&#\d*…/);
  });

  it('says unknown for a missing language or duration', () => {
    const body = transcriptBody({ ...transcript, language: null, durationSeconds: null, url: null }, 1000);
    expect(body).toContain('<strong>Language:</strong> unknown');
    expect(body).toContain('<strong>Duration:</strong> unknown');
    expect(body).not.toContain('<a ');
  });
});

describe('formatDuration', () => {
  it('writes minutes and seconds, with hours past the hour', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(754)).toBe('12:34');
    expect(formatDuration(3600)).toBe('1:00:00');
  });
});
