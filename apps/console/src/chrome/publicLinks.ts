import type { ConsoleConfig } from '@verbatim/contracts';
import type { TranslationKey } from '../i18n/translationKey';

/** Links of the public header, in the order the spec lists them (login arrives with accounts). */
export function publicLinks(links: ConsoleConfig['links']): { href: string; labelKey: TranslationKey }[] {
  return [
    { href: links.pricing, labelKey: 'chrome.publicNav.pricing' },
    { href: links.docs, labelKey: 'chrome.publicNav.docs' },
    { href: links.contact, labelKey: 'chrome.publicNav.contact' },
    { href: links.demo, labelKey: 'chrome.publicNav.demo' },
  ];
}
