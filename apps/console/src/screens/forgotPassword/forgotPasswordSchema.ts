import { recoveryRequestSchema } from '@verbatim/contracts';

/** Spec §5 Recovery request: the e-mail and a solved captcha; the API's own schema. */
export const forgotPasswordSchema = recoveryRequestSchema;
