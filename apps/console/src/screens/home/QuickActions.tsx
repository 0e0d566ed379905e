import { Button, SimpleGrid, VisuallyHidden } from '@mantine/core';
import {
  IconCloudUpload,
  IconCreditCard,
  IconFiles,
  IconKey,
  IconMicrophone,
  IconPlayerPlay,
  type Icon,
} from '@tabler/icons-react';
import type { ConsoleConfig } from '@verbatim/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { apiKeysPath, billingPath, liveTranscribePath, submittedFilesPath } from '../../app/paths';
import type { TranslationKey } from '../../i18n/translationKey';

interface QuickLink {
  labelKey: TranslationKey;
  icon: Icon;
  /** Another site, opened in a new tab. */
  href?: string;
  /** A screen of the console. */
  to?: string;
  /** Done in place, such as opening the upload modal. */
  onClick?: () => void;
}

/**
 * The actions of Getting started (spec §1). Those whose screen exists lead there; the others lead
 * to the documentation of the feature rather than to nothing.
 */
export function QuickActions({
  links,
  edition,
  onUploadFile,
}: {
  links: ConsoleConfig['links'];
  /** The on-premise edition has no credit to top up: its licence pays. */
  edition: ConsoleConfig['edition'];
  /** Spec §1: the Upload file button opens the upload modal. */
  onUploadFile: () => void;
}) {
  const { t } = useTranslation();
  const primary: QuickLink[] = [
    { labelKey: 'screens.home.liveTranscribe', icon: IconMicrophone, to: liveTranscribePath },
    { labelKey: 'screens.home.uploadFile', icon: IconCloudUpload, onClick: onUploadFile },
  ];
  const secondary: QuickLink[] = [
    { labelKey: 'screens.home.tryDemo', icon: IconPlayerPlay, href: links.demo },
    { labelKey: 'screens.home.generateApiKey', icon: IconKey, to: apiKeysPath },
    { labelKey: 'screens.home.submittedFiles', icon: IconFiles, to: submittedFilesPath },
    ...(edition === 'cloud'
      ? [{ labelKey: 'screens.home.topUp', icon: IconCreditCard, to: billingPath } satisfies QuickLink]
      : []),
  ];
  const linkButton = (
    { labelKey, icon: LinkIcon, href, to, onClick }: QuickLink,
    variant: 'filled' | 'light',
  ) =>
    onClick ? (
      <Button
        key={labelKey}
        onClick={onClick}
        variant={variant}
        leftSection={<LinkIcon size={18} aria-hidden />}
        fullWidth
      >
        {t(labelKey)}
      </Button>
    ) : to ? (
      <Button
        key={labelKey}
        component={Link}
        to={to}
        variant={variant}
        leftSection={<LinkIcon size={18} aria-hidden />}
        fullWidth
      >
        {t(labelKey)}
      </Button>
    ) : (
      <Button
        key={labelKey}
        component="a"
        href={href}
        target="_blank"
        rel="noopener noreferrer"
        variant={variant}
        leftSection={<LinkIcon size={18} aria-hidden />}
        fullWidth
      >
        {t(labelKey)}
        <VisuallyHidden> {t('chrome.opensInNewTab')}</VisuallyHidden>
      </Button>
    );
  return (
    <nav aria-label={t('screens.home.quickActions')}>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" mb="md">
        {primary.map((link) => linkButton(link, 'filled'))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
        {secondary.map((link) => linkButton(link, 'light'))}
      </SimpleGrid>
    </nav>
  );
}
