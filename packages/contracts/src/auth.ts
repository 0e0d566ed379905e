import { z } from 'zod';
import { validationMessages as m } from './validation-messages.js';

/**
 * zod's e-mail rule (z.email()) without look-arounds, for the OpenAPI document: a local part that
 * neither starts nor ends with a dot and has no two dots in a row, then a domain with a TLD of letters.
 * The document states the address as sent without surrounding spaces (which the server trims).
 */
const emailPattern =
  "^([A-Za-z0-9_'+-]+\\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\\.)+[A-Za-z]{2,}$";

/** Spec §5: e-mail addresses are 3 to 32 characters; inputs are trimmed. */
export const emailSchema = z
  .string({ error: m.required })
  .trim()
  .min(1, m.required)
  .min(3, m.emailTooShort)
  .max(32, m.emailTooLong)
  .meta({ pattern: emailPattern })
  .pipe(z.email(m.emailInvalid))
  .transform((email) => email.toLowerCase());

/** Spec §5: 8 to 64 characters with an upper-case letter, a lower-case letter, a digit and a special character. */
export const passwordSchema = z
  .string({ error: m.required })
  .min(1, m.required)
  .min(8, m.passwordRule)
  .max(64, m.passwordRule)
  .regex(/[A-Z]/, m.passwordRule)
  .regex(/[a-z]/, m.passwordRule)
  .regex(/[0-9]/, m.passwordRule)
  .regex(/[^A-Za-z0-9]/, m.passwordRule);

/** A solved captcha: an ALTCHA payload (base64 JSON) or a reCAPTCHA token, whichever is configured. */
export const captchaSolutionSchema = z
  .string({ error: m.captchaRequired })
  .trim()
  .min(1, m.captchaRequired)
  .max(8192);

export const registeredAsSchema = z.enum(['api', 'console']).default('api');

export const registerRequestSchema = z
  .object({
    email: emailSchema,
    password: passwordSchema,
    passConf: z.string({ error: m.required }).min(1, m.required),
    reCaptchaKey: captchaSolutionSchema,
    registeredAs: registeredAsSchema,
  })
  .refine((form) => form.password === form.passConf, { message: m.passwordsDoNotMatch, path: ['passConf'] })
  .meta({ id: 'RegisterRequest' });
export type RegisterRequest = z.input<typeof registerRequestSchema>;

export const accountStatusSchema = z.enum(['pending_verification', 'pending_approval', 'active', 'inactive']);
export type AccountStatus = z.infer<typeof accountStatusSchema>;

export const registeredUserSchema = z
  .object({ id: z.string(), email: z.string(), status: accountStatusSchema })
  .meta({ id: 'RegisteredUser' });

export const registerResponseSchema = z
  .object({ user: registeredUserSchema })
  .meta({ id: 'RegisterResponse' });
export type RegisterResponse = z.infer<typeof registerResponseSchema>;

export const resendVerificationRequestSchema = z
  .object({ email: emailSchema })
  .meta({ id: 'ResendVerificationRequest' });

export const recoveryRequestSchema = z
  .object({ email: emailSchema, reCaptchaKey: captchaSolutionSchema })
  .meta({ id: 'RecoveryRequest' });

export const recoveryPasswordRequestSchema = z
  .object({ password: passwordSchema, token: z.string().min(16).max(256) })
  .meta({ id: 'RecoveryPasswordRequest' });

export const recoveryPasswordResponseSchema = z
  .object({ user: z.object({ email: z.string() }) })
  .meta({ id: 'RecoveryPasswordResponse' });

/** An ALTCHA proof-of-work challenge for the client to solve. */
export const captchaChallengeSchema = z
  .object({
    algorithm: z.string(),
    challenge: z.string(),
    maxnumber: z.number().int().optional(),
    salt: z.string(),
    signature: z.string(),
  })
  .meta({ id: 'CaptchaChallenge' });

/** Which captcha the console must show, and when the login form must show it. */
export const captchaConfigSchema = z
  .object({
    provider: z.enum(['altcha', 'recaptcha']),
    /** Public site key, for reCAPTCHA only. */
    siteKey: z.string().optional(),
    /** Where the reCAPTCHA widget's script is loaded from, for reCAPTCHA only. */
    scriptUrl: z.url().optional(),
  })
  .meta({ id: 'CaptchaConfig' });

/** The answer to requests that must not reveal whether an account exists (recovery, resend). */
export const acceptedResponseSchema = z
  .object({ accepted: z.literal(true) })
  .meta({ id: 'AcceptedResponse' });
export type AcceptedResponse = z.infer<typeof acceptedResponseSchema>;
export type CaptchaChallenge = z.infer<typeof captchaChallengeSchema>;
export type CaptchaConfig = z.infer<typeof captchaConfigSchema>;
export type RecoveryPasswordResponse = z.infer<typeof recoveryPasswordResponseSchema>;
