import { AppShell, Container } from '@mantine/core';
import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { PublicHeader } from './PublicHeader';
import { SiteFooter } from './SiteFooter';
import classes from './AppLayout.module.css';

/**
 * Chrome of public screens. Takes children when rendered outside the route tree, as the route
 * error boundary does.
 */
export function PublicLayout({ children }: { children?: ReactNode }) {
  return (
    <AppShell header={{ height: 60 }} padding="md">
      <AppShell.Header>
        <PublicHeader />
      </AppShell.Header>
      <AppShell.Main className={classes.main}>
        <Container size="md" className={classes.content}>
          {children ?? <Outlet />}
        </Container>
        <SiteFooter />
      </AppShell.Main>
    </AppShell>
  );
}
