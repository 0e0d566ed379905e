import { Anchor, type AnchorProps, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A link leaving the console: opens in a new tab and says so to screen-reader users. */
export function ExternalLink({
  href,
  children,
  ...anchorProps
}: AnchorProps & { href: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Anchor href={href} target="_blank" rel="noopener noreferrer" {...anchorProps}>
      {children}
      <VisuallyHidden> {t('chrome.opensInNewTab')}</VisuallyHidden>
    </Anchor>
  );
}
