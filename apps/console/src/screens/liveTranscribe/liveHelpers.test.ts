import { describe, expect, it } from 'vitest';
import { followsNewText } from './autoScroll';
import { formatElapsed } from './formatElapsed';
import { isValidLiveFile, liveFormProblems } from './liveFormSchema';

describe('auto-scroll rule (spec §2: 80 px)', () => {
  const view = (scrollTop: number) => ({ scrollTop, scrollHeight: 1000, clientHeight: 200 });
  it('follows new text at the bottom and up to 80 px above it', () => {
    expect(followsNewText(view(800))).toBe(true);
    expect(followsNewText(view(720))).toBe(true);
  });
  it('stops following once the user scrolled up by more than 80 px', () => {
    expect(followsNewText(view(719))).toBe(false);
    expect(followsNewText(view(0))).toBe(false);
  });
});

describe('elapsed time', () => {
  it('reads mm:ss, with hours after an hour', () => {
    expect(formatElapsed(0)).toBe('00:00');
    expect(formatElapsed(65)).toBe('01:05');
    expect(formatElapsed(3599)).toBe('59:59');
    expect(formatElapsed(3600 + 62)).toBe('1:01:02');
  });
});

describe('live form (spec §5)', () => {
  const file = (name: string, type: string) => new File([new Uint8Array(1)], name, { type });
  const sized = (name: string, type: string, size: number) => {
    const picked = file(name, type);
    Object.defineProperty(picked, 'size', { value: size });
    return picked;
  };

  it('accepts the spec formats up to 500 MB, by type or by name when the type is unknown', () => {
    for (const [name, type] of [
      ['a.mp3', 'audio/mpeg'],
      ['a.mp4', 'video/mp4'],
      ['a.ogg', 'audio/ogg'],
      ['a.wav', 'audio/wav'],
      ['a.flac', 'audio/flac'],
      ['a.webm', 'video/webm'],
      ['a.mov', 'video/quicktime'],
      ['a.flac', ''],
    ] as const) {
      expect(isValidLiveFile(file(name, type)), name).toBe(true);
    }
    expect(isValidLiveFile(sized('a.wav', 'audio/wav', 524_288_000))).toBe(true);
  });

  it('refuses other formats, empty files and files over 500 MB', () => {
    expect(isValidLiveFile(file('a.txt', 'text/plain'))).toBe(false);
    expect(isValidLiveFile(file('a.aiff', ''))).toBe(false);
    expect(isValidLiveFile(sized('a.wav', 'audio/wav', 524_288_001))).toBe(false);
    expect(isValidLiveFile(sized('a.wav', 'audio/wav', 0))).toBe(false);
  });

  it('shows every problem at once: language required, a microphone or a valid file', () => {
    expect([...liveFormProblems({ language: '', mic: '', endpoints: true, file: null })].sort()).toEqual([
      'language',
      'mic',
    ]);
    expect(liveFormProblems({ language: 'en', mic: 'default', endpoints: true, file: null }).size).toBe(0);
    expect(
      liveFormProblems({ language: 'en', mic: '', endpoints: false, file: file('a.wav', 'audio/wav') }).size,
    ).toBe(0);
    expect([
      ...liveFormProblems({ language: 'en', mic: '', endpoints: true, file: file('a.txt', 'text/plain') }),
    ]).toEqual(['file']);
  });
});
