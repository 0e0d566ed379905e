import type { Transcript } from '@verbatim/speech';
import { compressionRatio, speakerNames } from '@verbatim/speech';

const englishNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });

/** OpenAI's verbose_json names the language in lower-case English ("english"), not by code. */
export function openAiLanguageName(code: string): string {
  return (englishNames.of(code) ?? code).toLowerCase();
}

/** The verbose_json answer of OpenAI's transcription API, from our transcript. */
export function toOpenAiVerbose(
  transcript: Transcript,
  text: string,
  granularities: { words: boolean; segments: boolean },
) {
  return {
    task: 'transcribe' as const,
    language: openAiLanguageName(transcript.language),
    duration: transcript.duration,
    text,
    ...(granularities.segments
      ? {
          segments: transcript.segments.map((segment) => ({
            id: segment.id,
            seek: Math.round(segment.start * 100),
            start: segment.start,
            end: segment.end,
            text: ` ${segment.text}`,
            tokens: [],
            temperature: 0,
            avg_logprob: segment.words.length
              ? segment.words.reduce((sum, word) => sum + Math.log(Math.max(word.confidence, 1e-6)), 0) /
                segment.words.length
              : 0,
            compression_ratio: Math.round(compressionRatio(segment.text) * 1000) / 1000,
            no_speech_prob: 0,
          })),
        }
      : {}),
    ...(granularities.words
      ? {
          words: transcript.segments.flatMap((segment) =>
            segment.words.map((word) => ({ word: word.text, start: word.start, end: word.end })),
          ),
        }
      : {}),
  };
}

/**
 * OpenAI's diarized_json (as `gpt-4o-transcribe-diarize` answers it) from a diarized transcript:
 * one segment per stretch of one speaker, labelled with the speaker's name (its id until renamed),
 * usage in seconds charged.
 */
export function toOpenAiDiarized(transcript: Transcript, text: string, billedSeconds: number) {
  const names = speakerNames(transcript);
  return {
    task: 'transcribe' as const,
    duration: transcript.duration,
    text,
    segments: transcript.segments.map((segment, index) => ({
      type: 'transcript.text.segment' as const,
      id: `seg_${index}`,
      start: segment.start,
      end: segment.end,
      text: segment.text,
      speaker: (segment.speaker && names.get(segment.speaker)) ?? segment.speaker ?? 'S1',
    })),
    usage: { type: 'duration' as const, seconds: billedSeconds },
  };
}
