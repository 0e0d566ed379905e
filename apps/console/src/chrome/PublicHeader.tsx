import { Burger, Container, Group, Menu } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { useConsoleConfig } from '../runtimeConfig/consoleConfigQuery';
import { ExternalLink } from './ExternalLink';
import { LanguageSwitch } from './LanguageSwitch';
import { ProductBrand } from './ProductBrand';
import { publicLinks } from './publicLinks';

/** Header of public screens; on phones the site links fold into a menu. */
export function PublicHeader() {
  const { t } = useTranslation();
  const config = useConsoleConfig().data;
  const links = config ? publicLinks(config.links) : [];
  const [menuOpened, menu] = useDisclosure(false);

  return (
    <Container size="lg" h="100%">
      <Group h="100%" justify="space-between" wrap="nowrap">
        <ProductBrand />
        <Group gap="lg" wrap="nowrap">
          {links.length > 0 && (
            <Group component="nav" aria-label={t('chrome.publicNav.label')} gap="lg" visibleFrom="sm">
              {links.map((link) => (
                <ExternalLink key={link.labelKey} href={link.href} c="dark" fw={500} fz="sm">
                  {t(link.labelKey)}
                </ExternalLink>
              ))}
            </Group>
          )}
          <LanguageSwitch />
          {links.length > 0 && (
            <Menu
              opened={menuOpened}
              onChange={(opened) => (opened ? menu.open() : menu.close())}
              position="bottom-end"
              width={200}
            >
              <Menu.Target>
                <Burger
                  hiddenFrom="sm"
                  size="sm"
                  opened={menuOpened}
                  aria-label={menuOpened ? t('chrome.header.closeSiteMenu') : t('chrome.header.openSiteMenu')}
                />
              </Menu.Target>
              <Menu.Dropdown aria-label={t('chrome.publicNav.label')}>
                {links.map((link) => (
                  <Menu.Item
                    key={link.labelKey}
                    component="a"
                    href={link.href}
                    target="_blank"
                    rel="noopener noreferrer"
                  >
                    {t(link.labelKey)}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
          )}
        </Group>
      </Group>
    </Container>
  );
}
