import { validationMessages } from '@verbatim/contracts';
import { AppError } from '../../errors/app-error.js';

/** Who is solving the captcha; reCAPTCHA takes the client address into account. */
export interface CaptchaContext {
  ip?: string | null;
}

/** Checks one captcha solution. A solution is accepted at most once. */
export interface CaptchaVerifier {
  verify(solution: string, context: CaptchaContext): Promise<boolean>;
}

/** Throws CAPTCHA_INVALID unless the solution verifies. */
export async function assertCaptcha(
  verifier: CaptchaVerifier,
  solution: string,
  context: CaptchaContext,
): Promise<void> {
  if (!(await verifier.verify(solution, context))) {
    throw new AppError('CAPTCHA_INVALID', validationMessages.captchaRequired);
  }
}
