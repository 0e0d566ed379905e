import type { Logger } from 'pino';
import { z } from 'zod';
import type { CaptchaContext, CaptchaVerifier } from './captcha-verifier.js';

const answerSchema = z.object({ success: z.boolean(), 'error-codes': z.array(z.string()).optional() });

export interface RecaptchaOptions {
  secretKey: string;
  verifyUrl: string;
  timeoutMs?: number;
}

/** Google reCAPTCHA: the token is checked by Google's siteverify endpoint, which also refuses replays. */
export class RecaptchaVerifier implements CaptchaVerifier {
  constructor(
    private readonly options: RecaptchaOptions,
    private readonly logger: Logger,
  ) {}

  async verify(solution: string, context: CaptchaContext): Promise<boolean> {
    const form = new URLSearchParams({ secret: this.options.secretKey, response: solution });
    if (context.ip) form.set('remoteip', context.ip);
    try {
      const response = await fetch(this.options.verifyUrl, {
        method: 'POST',
        body: form,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
      if (!response.ok) throw new Error(`siteverify answered HTTP ${response.status}`);
      const answer = answerSchema.parse(await response.json());
      if (!answer.success) this.logger.info({ errors: answer['error-codes'] }, 'reCAPTCHA token refused');
      return answer.success;
    } catch (error) {
      // Failing closed: without Google's word the request is treated as unverified.
      this.logger.error({ err: error }, 'reCAPTCHA verification failed');
      return false;
    }
  }
}
