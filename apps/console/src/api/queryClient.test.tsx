import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, useMutation, useQuery } from '@tanstack/react-query';
import { healthSchema } from '@verbatim/contracts';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../i18n/createI18n';
import { stubApi } from '../test/stubApi';
import { apiRequest } from './apiClient';
import type { MutationToastMeta } from './mutationMeta';
import { createQueryClient } from './queryClient';

let i18n: i18n;

beforeEach(async () => {
  i18n = await createI18n();
});

function renderWithClient(ui: React.ReactNode) {
  const onGlobalFailure = vi.fn();
  const queryClient = createQueryClient({ i18n, onGlobalFailure });
  render(
    <I18nextProvider i18n={i18n}>
      <MantineProvider>
        <Notifications />
        <QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>,
  );
  return { onGlobalFailure };
}

function HealthProbe() {
  const health = useQuery({
    queryKey: ['health'],
    queryFn: () => apiRequest('/health', { schema: healthSchema }),
  });
  return <p>{health.status}</p>;
}

function SaveButton({ meta, fails = false }: { meta?: MutationToastMeta; fails?: boolean }) {
  const save = useMutation({
    mutationFn: () => (fails ? Promise.reject(new Error('nope')) : Promise.resolve('saved')),
    meta,
  });
  return <button onClick={() => save.mutate()}>Save</button>;
}

describe('query client', () => {
  it('sends a query failing with 5xx to the general error state with the server error id', async () => {
    stubApi({
      '/api/v1/health': {
        status: 500,
        body: { code: 'INTERNAL_ERROR', message: 'Internal server error', errorId: 'err-9' },
      },
    });
    const { onGlobalFailure } = renderWithClient(<HealthProbe />);

    await waitFor(() => expect(onGlobalFailure).toHaveBeenCalledTimes(1));
    expect(onGlobalFailure).toHaveBeenCalledWith(
      expect.objectContaining({ status: 500, code: 'INTERNAL_ERROR', errorId: 'err-9' }),
    );
  });

  it('leaves a 4xx query failure to the screen', async () => {
    stubApi({ '/api/v1/health': { status: 429, body: { code: 'RATE_LIMITED', message: 'Slow down' } } });
    const { onGlobalFailure } = renderWithClient(<HealthProbe />);

    expect(await screen.findByText('error')).toBeInTheDocument();
    expect(onGlobalFailure).not.toHaveBeenCalled();
  });

  it('toasts the success message named by the mutation', async () => {
    renderWithClient(<SaveButton meta={{ successMessage: 'screens.systemStatus.ready' }} />);

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Operational')).toBeInTheDocument();
  });

  it('toasts the generic messages when the mutation names none', async () => {
    renderWithClient(
      <>
        <SaveButton />
        <SaveButton fails />
      </>,
    );
    const [succeeding, failing] = screen.getAllByRole('button', { name: 'Save' });

    await userEvent.click(succeeding!);
    expect(await screen.findByText('Operation successful')).toBeInTheDocument();
    await userEvent.click(failing!);
    expect(await screen.findByText('Operation failed')).toBeInTheDocument();
  });

  it('toasts the error message named by the mutation, in the current language', async () => {
    await i18n.changeLanguage('fr');
    renderWithClient(<SaveButton fails meta={{ errorMessage: 'apiErrors.RATE_LIMITED' }} />);

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(
      await screen.findByText('Trop de requêtes. Veuillez patienter un instant avant de réessayer.'),
    ).toBeInTheDocument();
  });

  it('stays silent when the mutation opts out', async () => {
    renderWithClient(<SaveButton meta={{ successMessage: false }} />);

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('Operation successful')).not.toBeInTheDocument();
  });
});
