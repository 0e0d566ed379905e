import type en from './en.json';

// Typed keys: `t('screens.home.tittle')` is a compile error instead of a raw key on screen.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}
