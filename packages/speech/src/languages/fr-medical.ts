import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** French with a medical vocabulary: recognised as French, with the term list as the decoder's prompt. */
export const frenchMedicalCode = 'fr-medical';

const termListSchema = z.object({ lead: z.string(), terms: z.array(z.string().min(1)).min(1) });

/** packages/speech/{src,dist}/languages → packages/speech/vocabulary. */
const termListPath = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../vocabulary/fr-medical-terms.json',
);

let prompt: string | undefined;

/**
 * The vocabulary prompt: whisper.cpp keeps at most half its text context (224 tokens) of prompt,
 * cutting from the front, so the terms get a budget and the most frequent come first; the
 * caller's own prompt and the previous window's text follow them.
 */
export function frenchMedicalPrompt(maxCharacters = 420): string {
  if (prompt !== undefined) return prompt;
  const list = termListSchema.parse(JSON.parse(readFileSync(termListPath, 'utf8')));
  let text = `${list.lead} `;
  for (const term of list.terms) {
    const next = text.endsWith(' ') ? `${text}${term}` : `${text}, ${term}`;
    if (next.length > maxCharacters) break;
    text = next;
  }
  prompt = `${text}.`;
  return prompt;
}
