import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notify, toastAutoCloseMs } from './notify';

/** Spec §9, written out so a change of the constant cannot carry the test along with it. */
const specToastDelayMs = 3000;

afterEach(() => {
  vi.useRealTimers();
});

function renderToastArea() {
  render(
    <MantineProvider>
      <Notifications />
    </MantineProvider>,
  );
}

describe('notify', () => {
  it('hides a toast by itself after 3 seconds', async () => {
    vi.useFakeTimers();
    renderToastArea();

    act(() => notify.success({ title: 'Done', message: 'Settings updated' }));
    expect(screen.getByText('Settings updated')).toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(specToastDelayMs - 100));
    expect(screen.getByText('Settings updated')).toBeInTheDocument();

    // The remaining time plus the exit transition.
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.queryByText('Settings updated')).not.toBeInTheDocument();
  });

  it('hides error toasts after 3 seconds too', async () => {
    vi.useFakeTimers();
    renderToastArea();

    act(() => notify.error({ message: 'Password change failed' }));
    expect(screen.getByText('Password change failed')).toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(specToastDelayMs + 1000));
    expect(screen.queryByText('Password change failed')).not.toBeInTheDocument();
  });

  it('waits exactly the spec delay', () => {
    expect(toastAutoCloseMs).toBe(specToastDelayMs);
  });
});
