import type { CaptchaConfig, ConsoleConfig, Profile, Readiness, Settings } from '@verbatim/contracts';

export const sampleConsoleConfig: ConsoleConfig = {
  productName: 'Verbatim Test',
  version: '1.2.3',
  links: {
    pricing: 'https://example.com/pricing',
    docs: 'https://example.com/docs',
    contact: 'https://example.com/contact',
    demo: 'https://example.com/demo',
    privacyPolicy: 'https://example.com/privacy',
    generalTerms: 'https://example.com/terms',
    social: [{ name: 'GitHub', url: 'https://github.com/example' }],
  },
  edition: 'cloud',
  onPremise: { offerUrl: 'https://example.com/on-premise', salesEmail: 'sales@example.com' },
  licenceProblem: null,
};

export const sampleReadiness: Readiness = {
  status: 'ready',
  checks: {
    database: { ok: true, latencyMs: 3 },
    migrations: { ok: true, pending: [] },
    speech: { ok: true, models: ['base-q8_0'], workers: 1, busy: 0, waiting: 0 },
    storage: { ok: true, kind: 'local', latencyMs: 1 },
  },
};

export const sampleProfile: Profile = {
  id: 'user-1',
  email: 'ada@example.com',
  fullName: 'Ada Lovelace',
  showWelcomeMsg: true,
  language: 'en',
  pendingEmail: null,
  photoUrl: null,
};

export const sampleCaptchaConfig: CaptchaConfig = { provider: 'altcha' };

export const sampleSettings: Settings = {
  language: 'en',
  transcripts: { language: 'en', deletionAfterDays: null, diarize: false },
  recordingExtension: 'ogg',
  calls: { ceiling: null, currentUsage: 0 },
  thirdPartyApi: { credits: { ceiling: 500, currentUsage: 11 } },
};
