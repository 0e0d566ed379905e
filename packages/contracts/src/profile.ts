import { z } from 'zod';
import { emailSchema, passwordSchema } from './auth.js';
import { validationMessages as m } from './validation-messages.js';

export const profileSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    fullName: z.string().nullable(),
    showWelcomeMsg: z.boolean(),
    language: z.string(),
    /** A new address waiting for its confirmation link to be opened. */
    pendingEmail: z.string().nullable(),
    /** Where the profile photo is served, when there is one. */
    photoUrl: z.string().nullable(),
  })
  .meta({ id: 'Profile' });
export type Profile = z.infer<typeof profileSchema>;

/** Spec §5: full name 3 to 32 characters, e-mail or null, at least one of them given. */
export const updateProfileRequestSchema = z
  .object({
    fullName: z
      .string()
      .trim()
      .min(3, m.fullNameInvalid)
      .max(32, m.fullNameInvalid)
      // For the OpenAPI document: at least 3 characters once trimmed.
      .meta({ pattern: '\\S[\\s\\S]+\\S' })
      .nullable()
      .default(null),
    email: emailSchema.nullable().default(null),
  })
  .refine((body) => body.fullName !== null || body.email !== null, {
    message: 'Give a full name, an e-mail address, or both.',
    path: ['fullName'],
  })
  .meta({
    id: 'UpdateProfileRequest',
    // The refinement above, for the OpenAPI document: at least one of them present and not null.
    anyOf: [
      { required: ['fullName'], properties: { fullName: { type: 'string' } } },
      { required: ['email'], properties: { email: { type: 'string' } } },
    ],
  });
export type UpdateProfileRequest = z.input<typeof updateProfileRequestSchema>;

export const welcomeMessageRequestSchema = z
  .object({ showWelcomeMsg: z.boolean() })
  .meta({ id: 'WelcomeMessageRequest' });

/** Spec §5: the old password 8 to 64 characters ('Invalid password'), the new one in the password format. */
export const changePasswordRequestSchema = z
  .object({
    oldPass: z.string().min(8, m.passwordInvalid).max(64, m.passwordInvalid),
    newPass: passwordSchema,
  })
  .meta({ id: 'ChangePasswordRequest' });
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;
