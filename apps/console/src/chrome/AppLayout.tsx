import { AppShell, Container } from '@mantine/core';
import { useDisclosure, useLocalStorage, useMediaQuery } from '@mantine/hooks';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { AppHeader } from './AppHeader';
import { LicenceProblemBanner } from './LicenceProblemBanner';
import { RouteBreadcrumbs } from './RouteBreadcrumbs';
import { Sidebar } from './Sidebar';
import { SiteFooter } from './SiteFooter';
import classes from './AppLayout.module.css';

const sidebarWidth = 260;
const railWidth = 72;

/** Chrome of the signed-in area: header, collapsible sidebar, breadcrumbs, footer. */
export function AppLayout() {
  const { t } = useTranslation();
  const sidebarId = useId();
  const [phoneMenuOpened, phoneMenu] = useDisclosure(false);
  // Remembered: someone who prefers the narrow rail should not have to collapse it on every visit.
  const [desktopCollapsed, setDesktopCollapsed] = useLocalStorage({
    key: 'verbatim.sidebarCollapsed',
    defaultValue: false,
    getInitialValueInEffect: false,
  });
  const isDesktop = useMediaQuery('(min-width: 48em)', true, { getInitialValueInEffect: false });
  const rail = desktopCollapsed && isDesktop;

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{
        width: rail ? railWidth : sidebarWidth,
        breakpoint: 'sm',
        collapsed: { mobile: !phoneMenuOpened },
      }}
      padding="md"
    >
      <AppShell.Header>
        <AppHeader
          sidebarId={sidebarId}
          phoneMenuOpened={phoneMenuOpened}
          onTogglePhoneMenu={phoneMenu.toggle}
          desktopCollapsed={desktopCollapsed}
          onToggleDesktopCollapsed={() => setDesktopCollapsed((collapsed) => !collapsed)}
        />
      </AppShell.Header>
      <AppShell.Navbar
        id={sidebarId}
        aria-label={t('chrome.sidebar.label')}
        className={classes.navbar}
        data-phone-menu-closed={phoneMenuOpened ? undefined : true}
      >
        <Sidebar rail={rail} onNavigate={phoneMenu.close} />
      </AppShell.Navbar>
      <AppShell.Main className={classes.main}>
        <Container size="lg" className={classes.content}>
          <RouteBreadcrumbs />
          <LicenceProblemBanner />
          <Outlet />
        </Container>
        <SiteFooter />
      </AppShell.Main>
    </AppShell>
  );
}
