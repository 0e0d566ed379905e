import { ActionIcon, Container, Group, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useConsoleConfig } from '../runtimeConfig/consoleConfigQuery';
import { useProductName } from '../runtimeConfig/useProductName';
import { ExternalLink } from './ExternalLink';
import { socialIcon } from './socialIcon';
import classes from './SiteFooter.module.css';

/** Legal and social links of the installation, shared by the signed-in and public layouts. */
export function SiteFooter() {
  const { t } = useTranslation();
  const config = useConsoleConfig().data;
  const productName = useProductName();

  return (
    <footer className={classes.footer}>
      <Container size="lg" className={classes.inner}>
        <Text fz="sm" c="dimmed">
          {t('chrome.footer.copyright', { year: new Date().getFullYear(), productName })}
          {config && (
            <Text span fz="xs" c="dimmed" ml="xs">
              {t('chrome.footer.version', { version: config.version })}
            </Text>
          )}
        </Text>
        {config && (
          <Group gap="lg" wrap="wrap">
            <nav aria-label={t('chrome.footer.legal')}>
              <Group gap="md" component="ul" className={classes.list}>
                <li>
                  <ExternalLink href={config.links.privacyPolicy} fz="sm" c="dimmed">
                    {t('chrome.footer.privacyPolicy')}
                  </ExternalLink>
                </li>
                <li>
                  <ExternalLink href={config.links.generalTerms} fz="sm" c="dimmed">
                    {t('chrome.footer.generalTerms')}
                  </ExternalLink>
                </li>
              </Group>
            </nav>
            {config.links.social.length > 0 && (
              <nav aria-label={t('chrome.footer.social')}>
                <Group gap={4} component="ul" className={classes.list}>
                  {config.links.social.map((social) => {
                    const Icon = socialIcon(social.name);
                    const label = t('chrome.footer.socialLink', { productName, network: social.name });
                    return (
                      <li key={social.url}>
                        <Tooltip label={social.name}>
                          <ActionIcon
                            component="a"
                            href={social.url}
                            target="_blank"
                            rel="noopener noreferrer"
                            variant="subtle"
                            color="gray"
                            size="lg"
                            aria-label={`${label} ${t('chrome.opensInNewTab')}`}
                          >
                            <Icon size={18} aria-hidden />
                          </ActionIcon>
                        </Tooltip>
                      </li>
                    );
                  })}
                </Group>
              </nav>
            )}
          </Group>
        )}
      </Container>
    </footer>
  );
}
