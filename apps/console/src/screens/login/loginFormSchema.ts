import { captchaSolutionSchema, validationMessages as m } from '@verbatim/contracts';
import { z } from 'zod';

/**
 * The login form: e-mail and password, and the captcha once the server has asked for it
 * (spec §5 Login: "when the captcha is required and missing, the captcha error message is shown").
 */
export const loginFormSchema = z
  .object({
    username: z.string().trim().min(1, m.required),
    password: z.string().min(1, m.required),
    captchaRequired: z.boolean(),
    reCaptchaKey: z.string().optional(),
  })
  .superRefine((form, context) => {
    if (form.captchaRequired && !captchaSolutionSchema.safeParse(form.reCaptchaKey).success) {
      context.addIssue({ code: 'custom', path: ['reCaptchaKey'], message: m.captchaRequired });
    }
  });

export type LoginFormValues = z.input<typeof loginFormSchema>;
