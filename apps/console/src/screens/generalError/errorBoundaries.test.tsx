import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { RouteErrorScreen } from './RouteErrorScreen';
import { AppErrorBoundary } from './AppErrorBoundary';
import { renderRoutes } from '../../test/renderRoutes';
import { stubApi } from '../../test/stubApi';
import { MantineProvider } from '@mantine/core';
import { I18nextProvider } from 'react-i18next';
import { createI18n } from '../../i18n/createI18n';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function BrokenScreen(): never {
  throw new Error('render failed');
}

beforeEach(() => {
  stubApi();
});

describe('route error boundary', () => {
  it('shows the general error page with a new error id, and logs the error under that id', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);

    await renderRoutes([{ path: '/', element: <BrokenScreen />, errorElement: <RouteErrorScreen /> }], {
      initialEntries: ['/'],
    });

    const errorId = (await screen.findByTestId('error-id')).textContent;
    expect(errorId).toMatch(uuidPattern);
    expect(consoleError).toHaveBeenCalledWith(
      expect.stringContaining(`[${errorId}]`),
      expect.objectContaining({ message: 'render failed' }),
    );
    expect(screen.getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/home');
  });
});

describe('application error boundary', () => {
  it('replaces a crashed app with the general error page and a plain link home', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const i18n = await createI18n();

    render(
      <I18nextProvider i18n={i18n}>
        <MantineProvider>
          <AppErrorBoundary>
            <BrokenScreen />
          </AppErrorBoundary>
        </MantineProvider>
      </I18nextProvider>,
    );

    const errorId = screen.getByTestId('error-id').textContent;
    expect(errorId).toMatch(uuidPattern);
    expect(screen.getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/home');
    expect(consoleError).toHaveBeenCalledWith(
      expect.stringContaining(`[${errorId}]`),
      expect.objectContaining({ message: 'render failed' }),
      expect.anything(),
    );
  });
});
