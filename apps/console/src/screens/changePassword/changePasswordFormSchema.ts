import { changePasswordRequestSchema, validationMessages as m } from '@verbatim/contracts';
import { z } from 'zod';

/** Spec §5 Change password: the API's rules, and a confirmation equal to the new password. */
export const changePasswordFormSchema = changePasswordRequestSchema
  .extend({ passConf: z.string().min(1, m.required) })
  .refine((form) => form.newPass === form.passConf, { message: m.passwordsDoNotMatch, path: ['passConf'] });

export type ChangePasswordForm = z.input<typeof changePasswordFormSchema>;
