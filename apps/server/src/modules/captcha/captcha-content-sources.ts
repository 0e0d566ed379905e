import type { Config } from '../../config/config.js';

/** What the Content-Security-Policy must allow beyond our own origin for the configured captcha. */
export interface CaptchaContentSources {
  scriptSrc: string[];
  frameSrc: string[];
}

/**
 * reCAPTCHA's script, the scripts it loads from gstatic and its challenge frames (Google's
 * documented CSP for reCAPTCHA), plus the origin of a configured script URL. ALTCHA needs nothing.
 */
export function captchaContentSources(captcha: Config['accounts']['captcha']): CaptchaContentSources {
  if (captcha.provider !== 'recaptcha') return { scriptSrc: [], frameSrc: [] };
  const scriptOrigin = new URL(captcha.scriptUrl).origin;
  const unique = (sources: string[]) => [...new Set(sources)];
  return {
    scriptSrc: unique([
      scriptOrigin,
      'https://www.google.com/recaptcha/',
      'https://www.gstatic.com/recaptcha/',
    ]),
    frameSrc: unique([
      scriptOrigin,
      'https://www.google.com/recaptcha/',
      'https://recaptcha.google.com/recaptcha/',
    ]),
  };
}
