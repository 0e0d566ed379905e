import { Button, Container } from '@mantine/core';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { newErrorId } from '../../app/newErrorId';
import { homePath } from '../../app/paths';
import { GeneralErrorPanel } from './GeneralErrorPanel';

interface AppErrorBoundaryState {
  errorId: string | undefined;
}

/**
 * Last line of defence around the router and data providers: when even they fail, show the
 * general error page with plain links, since neither the router nor the configuration can be used.
 */
export class AppErrorBoundary extends Component<{ children: ReactNode }, AppErrorBoundaryState> {
  override state: AppErrorBoundaryState = { errorId: undefined };

  static getDerivedStateFromError(): AppErrorBoundaryState {
    return { errorId: newErrorId() };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(`[${this.state.errorId}] Unhandled error in the console`, error, info.componentStack);
  }

  override render() {
    return this.state.errorId === undefined ? (
      this.props.children
    ) : (
      <StandaloneGeneralError errorId={this.state.errorId} />
    );
  }
}

function StandaloneGeneralError({ errorId }: { errorId: string }) {
  const { t } = useTranslation();
  return (
    <Container size="md" component="main">
      <GeneralErrorPanel
        errorId={errorId}
        // A full page load, not a client-side navigation: the app's state is not trustworthy now.
        actions={
          <Button component="a" href={homePath}>
            {t('screens.generalError.goHome')}
          </Button>
        }
      />
    </Container>
  );
}
