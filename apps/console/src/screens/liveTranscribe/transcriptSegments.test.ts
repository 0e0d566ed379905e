import { describe, expect, it } from 'vitest';
import { transcriptText } from './transcriptSegments';

describe('the live transcript text', () => {
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
