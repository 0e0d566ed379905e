import type { Transcript } from '@verbatim/speech';

/** Names kept for a file's speakers: `{"S1": "Anna"}`, as stored (JSON) or already read. */
export type SpeakerNames = Record<string, string>;

function parsed(names: string | SpeakerNames | null): SpeakerNames {
  if (names === null) return {};
  if (typeof names !== 'string') return names;
  const value: unknown = JSON.parse(names);
  return typeof value === 'object' && value !== null ? (value as SpeakerNames) : {};
}

/**
 * The transcript with the names given to its speakers (a speaker never renamed keeps its id as
 * its name); the stored transcript itself never changes, so a rename is one small write.
 */
export function withSpeakerNames(transcript: Transcript, names: string | SpeakerNames | null): Transcript {
  if (!transcript.speakers) return transcript;
  const given = parsed(names);
  return {
    ...transcript,
    speakers: transcript.speakers.map((speaker) => ({
      id: speaker.id,
      name: given[speaker.id] ?? speaker.name,
    })),
  };
}
