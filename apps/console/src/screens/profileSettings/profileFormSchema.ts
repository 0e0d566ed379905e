import { emailSchema, validationMessages as m } from '@verbatim/contracts';
import { z } from 'zod';

/** Spec §9: profile photos are JPEG, at most 5 MiB (the server's PROFILE_PHOTO_MAX_BYTES default). */
export const maxPhotoBytes = 5 * 1024 * 1024;

/**
 * Spec §5 Profile: full name 3 to 32 characters ('Invalid full name'), or left empty; the e-mail
 * with the rules of the API's schema; a photo that is a JPEG.
 */
export const profileFormSchema = z.object({
  fullName: z
    .string()
    .trim()
    .refine((name) => name === '' || (name.length >= 3 && name.length <= 32), m.fullNameInvalid),
  email: emailSchema,
  photo: z
    .instanceof(File)
    .refine((file) => file.type === 'image/jpeg' && file.size <= maxPhotoBytes, 'Invalid file')
    .nullable(),
});

export type ProfileFormInput = z.input<typeof profileFormSchema>;
export type ProfileFormOutput = z.output<typeof profileFormSchema>;
