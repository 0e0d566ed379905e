import { readFileSync } from 'node:fs';
import path from 'node:path';

import { z } from 'zod';

import { testdataDir } from './paths.js';

export const manifestSubsets = ['utt', 'long', 'container'] as const;

const manifestRowSchema = z.object({
  path: z.string().min(1),
  language: z.string().min(2),
  duration_seconds: z.coerce.number().positive(),
  reference_text: z.string(),
  source: z.string(),
  license: z.string(),
  subset: z.enum(manifestSubsets),
  notes: z.string(),
});

/** One recording of ../shared/testdata/manifest.tsv. */
export interface ManifestEntry {
  /** Relative to the test data folder, e.g. `en/jfk-inaugural.flac`. */
  path: string;
  absolutePath: string;
  /** ISO 639-1 code. */
  language: string;
  durationSeconds: number;
  referenceText: string;
  source: string;
  license: string;
  /** `utt`: accuracy; `long`: throughput; `container`: the same speech in other codecs, for the decoder. */
  subset: (typeof manifestSubsets)[number];
  notes: string;
}

/** Reads and checks the test data manifest (tab-separated, one header row). Throws naming the bad line. */
export function readManifest(manifestPath = path.join(testdataDir, 'manifest.tsv')): ManifestEntry[] {
  const lines = readFileSync(manifestPath, 'utf8').split(/\r?\n/);
  const header = (lines[0] ?? '').split('\t');
  const entries: ManifestEntry[] = [];
  lines.slice(1).forEach((line, index) => {
    if (!line.trim()) return;
    const cells = line.split('\t');
    const row = manifestRowSchema.safeParse(
      Object.fromEntries(header.map((name, i) => [name, cells[i] ?? ''])),
    );
    if (!row.success) throw new Error(`${manifestPath} line ${index + 2}: ${row.error.message}`);
    const data = row.data;
    entries.push({
      path: data.path,
      absolutePath: path.resolve(path.dirname(manifestPath), data.path),
      language: data.language,
      durationSeconds: data.duration_seconds,
      referenceText: data.reference_text,
      source: data.source,
      license: data.license,
      subset: data.subset,
      notes: data.notes,
    });
  });
  return entries;
}
