import { isUploadMediaType, maxUploadBytes } from '@verbatim/contracts';
import { z } from 'zod';

/** Spec §2: the file hint's formats. */
export const liveFileExtensions = ['mp3', 'mp4', 'ogg', 'wav', 'flac', 'webm', 'mov'] as const;

/** What the file picker offers (spec §5: audio and video). */
export const liveFileAccept = [
  'audio/*',
  'video/*',
  ...liveFileExtensions.map((extension) => `.${extension}`),
].join(',');

/**
 * Spec §5: a picked file is checked on its own: at most 500 MB, one of the formats above (by its
 * type, or by its name when the browser gives no type).
 */
export function isValidLiveFile(file: Pick<File, 'name' | 'size' | 'type'>): boolean {
  if (file.size < 1 || file.size > maxUploadBytes) return false;
  if (file.type !== '') return isUploadMediaType(file.type);
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  return (liveFileExtensions as readonly string[]).includes(extension);
}

/**
 * Spec §3 Live form and §5: checked before start with every problem shown on its field. The
 * language is required; either a microphone or a valid file; a file, when picked, must be valid.
 */
export const liveFormSchema = z
  .object({
    language: z.string().min(1, 'language'),
    mic: z.string(),
    endpoints: z.boolean(),
    file: z.custom<File>((value) => value instanceof File).nullable(),
  })
  .superRefine((form, context) => {
    if (form.file && !isValidLiveFile(form.file)) {
      context.addIssue({ code: 'custom', path: ['file'], message: 'file' });
    }
    if (form.file === null && form.mic.length < 1) {
      context.addIssue({ code: 'custom', path: ['mic'], message: 'mic' });
    }
  });
export type LiveFormValues = z.infer<typeof liveFormSchema>;
export type LiveFormField = 'language' | 'mic' | 'file';

/** The fields refused (each shows its message, `screens.liveTranscribe.invalid.<field>`). */
export function liveFormProblems(values: LiveFormValues): Set<LiveFormField> {
  const parsed = liveFormSchema.safeParse(values);
  const problems = new Set<LiveFormField>();
  for (const issue of parsed.error?.issues ?? []) {
    const field = issue.path[0];
    if (field === 'language' || field === 'mic' || field === 'file') problems.add(field);
  }
  return problems;
}
