import { ActionIcon, Burger, Group } from '@mantine/core';
import { IconLayoutSidebarLeftCollapse, IconLayoutSidebarLeftExpand } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from './LanguageSwitch';
import { ProductBrand } from './ProductBrand';
import { UserMenu } from './UserMenu';

export interface AppHeaderProps {
  sidebarId: string;
  phoneMenuOpened: boolean;
  onTogglePhoneMenu: () => void;
  desktopCollapsed: boolean;
  onToggleDesktopCollapsed: () => void;
}

/** Header of the signed-in area: one sidebar toggle per screen size, brand, language switch, user menu. */
export function AppHeader({
  sidebarId,
  phoneMenuOpened,
  onTogglePhoneMenu,
  desktopCollapsed,
  onToggleDesktopCollapsed,
}: AppHeaderProps) {
  const { t } = useTranslation();
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap">
        <Burger
          hiddenFrom="sm"
          size="sm"
          opened={phoneMenuOpened}
          onClick={onTogglePhoneMenu}
          aria-label={
            phoneMenuOpened ? t('chrome.header.closeNavigation') : t('chrome.header.openNavigation')
          }
          aria-expanded={phoneMenuOpened}
          aria-controls={sidebarId}
        />
        <ActionIcon
          visibleFrom="sm"
          variant="subtle"
          color="gray"
          size="lg"
          onClick={onToggleDesktopCollapsed}
          aria-label={
            desktopCollapsed ? t('chrome.header.expandSidebar') : t('chrome.header.collapseSidebar')
          }
          aria-expanded={!desktopCollapsed}
          aria-controls={sidebarId}
        >
          {desktopCollapsed ? (
            <IconLayoutSidebarLeftExpand size={20} stroke={1.6} aria-hidden />
          ) : (
            <IconLayoutSidebarLeftCollapse size={20} stroke={1.6} aria-hidden />
          )}
        </ActionIcon>
        <ProductBrand />
      </Group>
      <Group gap="sm" wrap="nowrap">
        <LanguageSwitch saveToSettings />
        <UserMenu />
      </Group>
    </Group>
  );
}
