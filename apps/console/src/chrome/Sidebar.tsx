import { NavLink, ScrollArea, Skeleton, Stack, Tooltip } from '@mantine/core';
import {
  IconApi,
  IconBook2,
  IconCreditCard,
  IconFiles,
  IconKey,
  IconMicrophone,
  IconRocket,
  IconServer,
  IconPlugConnected,
  IconSettings,
  type Icon,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import {
  apiKeysPath,
  apiReferencePath,
  billingPath,
  configurationPath,
  integrationsPath,
  homePath,
  liveTranscribePath,
  onPremisePath,
  submittedFilesPath,
} from '../app/paths';
import type { TranslationKey } from '../i18n/translationKey';
import { useConsoleConfig } from '../runtimeConfig/consoleConfigQuery';
import { SidebarCredit } from './SidebarCredit';

/** Screens of the signed-in area; each feature issue adds its own entry here. */
const screenLinks: readonly { to: string; labelKey: TranslationKey; icon: Icon }[] = [
  { to: homePath, labelKey: 'chrome.sidebar.home', icon: IconRocket },
  { to: liveTranscribePath, labelKey: 'chrome.sidebar.liveTranscribe', icon: IconMicrophone },
  { to: submittedFilesPath, labelKey: 'chrome.sidebar.submittedFiles', icon: IconFiles },
  { to: apiKeysPath, labelKey: 'chrome.sidebar.apiKeys', icon: IconKey },
  { to: onPremisePath, labelKey: 'chrome.sidebar.onPremise', icon: IconServer },
  { to: billingPath, labelKey: 'chrome.sidebar.billing', icon: IconCreditCard },
  { to: integrationsPath, labelKey: 'chrome.sidebar.integrations', icon: IconPlugConnected },
  { to: configurationPath, labelKey: 'chrome.sidebar.configuration', icon: IconSettings },
];

export interface SidebarProps {
  /** Desktop rail mode: icons only, labels in tooltips. */
  rail: boolean;
  /** Called when a link is chosen, so the phone menu can close. */
  onNavigate: () => void;
}

export function Sidebar({ rail, onNavigate }: SidebarProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const consoleConfig = useConsoleConfig();
  const config = consoleConfig.data;
  const docsUrl = config?.links.docs;
  // The on-premise edition has no credit and no billing: its licence pays (shown on /on-premise).
  const onPremiseEdition = config?.edition === 'on_premise';
  const links = onPremiseEdition ? screenLinks.filter(({ to }) => to !== billingPath) : screenLinks;

  // Until the edition is known the links stand still as placeholders: links shown at once and then
  // moved by the credit card or the Billing link would be under the pointer of someone already
  // clicking the one they saw. A configuration that cannot be read leaves the cloud's links.
  if (consoleConfig.isPending) {
    return (
      <Stack gap={4} p="sm" aria-busy aria-label={t('chrome.loading')}>
        {screenLinks.map(({ to }) => (
          <Skeleton key={to} h={40} radius="sm" />
        ))}
      </Stack>
    );
  }

  return (
    <ScrollArea type="never">
      <Stack gap={4} p="sm">
        {!onPremiseEdition && <SidebarCredit rail={rail} />}
        {links.map(({ to, labelKey, icon: LinkIcon }) => (
          <SidebarItem key={to} rail={rail} label={t(labelKey)}>
            <NavLink
              component={Link}
              to={to}
              onClick={onNavigate}
              active={pathname === to || pathname.startsWith(`${to}/`)}
              aria-current={pathname === to ? 'page' : undefined}
              label={rail ? undefined : t(labelKey)}
              aria-label={rail ? t(labelKey) : undefined}
              leftSection={<LinkIcon size={20} stroke={1.6} aria-hidden />}
              variant="light"
            />
          </SidebarItem>
        ))}
        {docsUrl && (
          <SidebarItem rail={rail} label={t('chrome.sidebar.documentation')}>
            <NavLink
              href={docsUrl}
              target="_blank"
              rel="noopener noreferrer"
              onClick={onNavigate}
              label={rail ? undefined : t('chrome.sidebar.documentation')}
              aria-label={`${t('chrome.sidebar.documentation')} ${t('chrome.opensInNewTab')}`}
              leftSection={<IconBook2 size={20} stroke={1.6} aria-hidden />}
            />
          </SidebarItem>
        )}
        <SidebarItem rail={rail} label={t('chrome.sidebar.apiReference')}>
          <NavLink
            href={apiReferencePath}
            target="_blank"
            onClick={onNavigate}
            label={rail ? undefined : t('chrome.sidebar.apiReference')}
            aria-label={`${t('chrome.sidebar.apiReference')} ${t('chrome.opensInNewTab')}`}
            leftSection={<IconApi size={20} stroke={1.6} aria-hidden />}
          />
        </SidebarItem>
      </Stack>
    </ScrollArea>
  );
}

/** In rail mode the label moves into a tooltip so the icons stay identifiable. */
function SidebarItem({ rail, label, children }: { rail: boolean; label: string; children: ReactNode }) {
  return rail ? (
    <Tooltip label={label} position="right" withArrow>
      {children}
    </Tooltip>
  ) : (
    children
  );
}
