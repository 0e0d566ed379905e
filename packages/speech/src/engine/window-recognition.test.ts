import { describe, expect, it } from 'vitest';
import { encoderContextFor, maxTokensFor } from './window-recognition.js';

describe('encoderContextFor', () => {
  it('covers the audio and its margin in whole steps of 16 frames', () => {
    // 5 s = 250 frames, + 128 = 378, rounded up to 384.
    expect(encoderContextFor(5 * 16_000, 128)).toBe(384);
    // 2.01 s = 101 frames (a partial frame counts), + 64 = 165, rounded up to 176.
    expect(encoderContextFor(2.01 * 16_000, 64)).toBe(176);
    expect(encoderContextFor(4 * 16_000, 64)).toBe(272);
  });

  it('never asks for more than the model’s 30 s', () => {
    expect(encoderContextFor(29.5 * 16_000, 128)).toBe(1500);
    expect(encoderContextFor(30 * 16_000, 128)).toBe(1500);
  });
});

describe('maxTokensFor', () => {
  it('lets a segment hold about twice (partial) or three times (final) what speech can hold', () => {
    expect(maxTokensFor(1.4, true)).toBe(28);
    expect(maxTokensFor(1.4, false)).toBe(41);
    // A 20 s final may hold 264 tokens: more than whisper.cpp's own limit of 220.
    expect(maxTokensFor(20, false)).toBe(264);
  });
});
