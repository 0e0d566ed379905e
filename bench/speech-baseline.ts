import path from 'node:path';
import { RecogniserPool } from '@verbatim/speech';
import {
  aggregateWer,
  decodedRecording,
  sharedModelsDir,
  wordErrorRate,
  type ManifestEntry,
} from '@verbatim/speech/test-support';

/**
 * whisper.cpp as its own command-line tool runs it (the whole recording in one call, beam 5 with
 * temperature fallback, the full 30 s encoder context, no VAD, prompt or guards), scored with the
 * benchmark's own normaliser: the references of ../shared/models/README.md were scored by another
 * one (their word counts differ), so this is the like-for-like baseline the pipeline must not lose
 * accuracy against. Recordings of the dev set are under 30 s, one whisper.cpp call each.
 */
export async function cliBaselineWer(
  modelFile: string,
  entries: readonly ManifestEntry[],
  threads: number,
): Promise<number> {
  const pool = new RecogniserPool({ workers: 1, threadsPerWorker: threads });
  try {
    const results = [];
    for (const entry of entries) {
      const { result } = await pool.recognise({
        modelPath: path.join(sharedModelsDir, modelFile),
        samples: await decodedRecording(entry.absolutePath),
        options: { language: entry.language, beamSize: 5, suppressNonSpeech: false },
      });
      const text = result.segments.map((segment) => segment.text).join(' ');
      results.push(wordErrorRate(entry.referenceText, text, entry.language));
    }
    return aggregateWer(results).wer;
  } finally {
    await pool.close();
  }
}
