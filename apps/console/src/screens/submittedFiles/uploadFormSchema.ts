import {
  callbackUrlSchema,
  isUploadMediaType,
  uploadFileSchema,
  uploadLanguageSchema,
  uploadValidationMessages,
} from '@verbatim/contracts';
import { z } from 'zod';

/**
 * The MIME types of the spec's formats by extension, for files whose type the browser leaves empty
 * (some systems know no type for .flac or .mov): the server checks the type it is given.
 */
const mediaTypeByExtension: Record<string, string> = {
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  ogv: 'video/ogg',
  mp3: 'audio/mpeg',
  flac: 'audio/flac',
  webm: 'video/webm',
  mp4: 'video/mp4',
  m4a: 'audio/mp4',
  mov: 'video/quicktime',
};

/** The file's MIME type, or the one of its extension when the browser gives none. */
export function mediaTypeOf(file: Pick<File, 'name' | 'type'>): string {
  if (file.type !== '') return file.type;
  const extension = /\.([^.]+)$/.exec(file.name)?.[1]?.toLowerCase() ?? '';
  return mediaTypeByExtension[extension] ?? '';
}

/** A picked file the server will take (spec §5): a supported type and at most 500 MB. */
export function isUploadableFile(file: File): boolean {
  const type = mediaTypeOf(file);
  return (
    isUploadMediaType(type) && uploadFileSchema.safeParse({ name: file.name, size: file.size, type }).success
  );
}

/** The upload modal (spec §5 Upload file), with the spec's messages, from the contracts' rules. */
export const uploadFormSchema = z.object({
  file: z
    .custom<File | null>(
      (value) => value === null || value instanceof File,
      uploadValidationMessages.fileInvalid,
    )
    .refine((file) => file !== null && isUploadableFile(file), uploadValidationMessages.fileInvalid),
  languageCode: uploadLanguageSchema,
  callbackUrl: callbackUrlSchema,
});
export type UploadFormInput = z.input<typeof uploadFormSchema>;
export type UploadFormValues = z.output<typeof uploadFormSchema>;
