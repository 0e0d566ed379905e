import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/config.js';
import { captchaContentSources } from './captcha-content-sources.js';

describe('captcha content sources', () => {
  it('allow nothing more for ALTCHA', () => {
    expect(captchaContentSources(loadConfig({}).accounts.captcha)).toEqual({ scriptSrc: [], frameSrc: [] });
  });

  it("allow reCAPTCHA's script and frames, and a configured script origin", () => {
    const config = loadConfig({
      CAPTCHA_PROVIDER: 'recaptcha',
      RECAPTCHA_SITE_KEY: 'site',
      RECAPTCHA_SECRET_KEY: 'secret',
      RECAPTCHA_SCRIPT_URL: 'http://127.0.0.1:4000/recaptcha/api.js',
    });
    const sources = captchaContentSources(config.accounts.captcha);
    expect(sources.scriptSrc).toEqual([
      'http://127.0.0.1:4000',
      'https://www.google.com/recaptcha/',
      'https://www.gstatic.com/recaptcha/',
    ]);
    expect(sources.frameSrc).toContain('https://www.google.com/recaptcha/');
  });
});
