import { passwordSchema, validationMessages as m } from '@verbatim/contracts';
import { z } from 'zod';

/** Spec §5: the password rule, and a confirmation equal to it. */
export const newPasswordSchema = z
  .object({ password: passwordSchema, passConf: z.string().min(1, m.required) })
  .refine((form) => form.password === form.passConf, { message: m.passwordsDoNotMatch, path: ['passConf'] });

export type NewPasswordForm = z.input<typeof newPasswordSchema>;
