import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../app/routes';
import { renderRoutes } from '../../test/renderRoutes';
import { testAccessToken } from '../../test/testSession';
import { stubApi } from '../../test/stubApi';
import { paymentOf } from './billingTestData';

const page = {
  payments: [
    paymentOf(),
    paymentOf({
      id: 'pay-2',
      paymentProvider: 'stripe',
      status: 'pending',
      amount: 1000,
      invoiceNumber: null,
      invoiceEnLocation: null,
    }),
    paymentOf({ id: 'pay-3', status: 'failed', invoiceNumber: null, invoiceEnLocation: null }),
    paymentOf({ id: 'pay-4', status: 'deleted', invoiceNumber: null, invoiceEnLocation: null }),
  ],
  total: 14,
};

function paymentRequests(fetchMock: ReturnType<typeof stubApi>) {
  return fetchMock.mock.calls
    .map(([url]) => url)
    .filter((url): url is string => typeof url === 'string' && url.startsWith('/api/v1/limiter/payments?'));
}

async function openHistory(path = '/billing/history') {
  const view = await renderRoutes(routes, { initialEntries: [path], signedIn: true });
  await screen.findByRole('heading', { level: 1, name: 'Billing history' });
  return view;
}

// jsdom has no object URLs; the test puts its own in place and takes them away after.
const objectUrlFunctions = ['createObjectURL', 'revokeObjectURL'] as const;
const realObjectUrlFunctions = objectUrlFunctions.map((name) => Object.getOwnPropertyDescriptor(URL, name));

function stubObjectUrls(createObjectURL: () => string) {
  Object.defineProperty(URL, 'createObjectURL', {
    value: createObjectURL,
    configurable: true,
    writable: true,
  });
  Object.defineProperty(URL, 'revokeObjectURL', { value: vi.fn(), configurable: true, writable: true });
}

afterEach(() => {
  vi.unstubAllGlobals();
  objectUrlFunctions.forEach((name, index) => {
    const real = realObjectUrlFunctions[index];
    if (real) Object.defineProperty(URL, name, real);
    else Reflect.deleteProperty(URL, name);
  });
});

describe('billing history', () => {
  it('lists a page of payments with readable providers, totals and statuses', async () => {
    const fetchMock = stubApi({ '/api/v1/limiter/payments': { body: page } });
    await openHistory();

    const table = within(await screen.findByRole('table', { name: 'Payments' }));
    const headers = table.getAllByRole('columnheader').map((header) => header.textContent);
    expect(headers).toEqual(['Invoice', 'Paid at', 'Paid via', 'Total', 'Status']);
    const rows = table.getAllByRole('row').slice(1);
    expect(rows).toHaveLength(4);
    const first = within(rows[0] as HTMLElement);
    expect(first.getByText('VBT-2026-000001')).toBeInTheDocument();
    expect(first.getByText('Sandbox (test mode)')).toBeInTheDocument();
    expect(first.getByText('$24.20')).toBeInTheDocument();
    expect(first.getByText('Paid')).toBeInTheDocument();
    expect(first.getByText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)).toBeInTheDocument();
    const second = within(rows[1] as HTMLElement);
    expect(second.getByText('Stripe')).toBeInTheDocument();
    expect(second.getByText('Pending')).toBeInTheDocument();
    expect(second.getByText('-')).toBeInTheDocument();
    expect(within(rows[2] as HTMLElement).getByText('Failed')).toBeInTheDocument();
    expect(within(rows[3] as HTMLElement).getByText('Cancelled')).toBeInTheDocument();
    expect(paymentRequests(fetchMock)).toEqual(['/api/v1/limiter/payments?start=0&limit=10']);
  });

  it('pages by 10', async () => {
    const fetchMock = stubApi({ '/api/v1/limiter/payments': { body: page } });
    const { router } = await openHistory();
    await screen.findByRole('table', { name: 'Payments' });

    await userEvent.click(screen.getByRole('button', { name: 'Page 2' }));

    await vi.waitFor(() =>
      expect(paymentRequests(fetchMock)).toEqual([
        '/api/v1/limiter/payments?start=0&limit=10',
        '/api/v1/limiter/payments?start=10&limit=10',
      ]),
    );
    expect(router.state.location.search).toBe('?page=2');
    expect(screen.queryByRole('button', { name: 'Page 3' })).not.toBeInTheDocument();
  });

  it('opens the page named in the address', async () => {
    const fetchMock = stubApi({ '/api/v1/limiter/payments': { body: page } });
    await openHistory('/billing/history?page=2');
    await screen.findByRole('table', { name: 'Payments' });

    expect(paymentRequests(fetchMock)).toEqual(['/api/v1/limiter/payments?start=10&limit=10']);
  });

  it('says when there is no payment yet', async () => {
    stubApi({ '/api/v1/limiter/payments': { body: { payments: [], total: 0 } } });
    await openHistory();

    expect(await screen.findByText('No payments yet.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Top up credit' })).toHaveAttribute('href', '/billing');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('downloads the invoice PDF with the bearer token and saves it under its number', async () => {
    const apiMock = stubApi({ '/api/v1/limiter/payments': { body: page } });
    // A PDF answer; made here because the Blob of Node's Response is not jsdom's Blob class.
    const pdf = new Blob(['%PDF-1.7'], { type: 'application/pdf' });
    const fetchMock = vi.fn((input: RequestInfo | URL, init?: RequestInit) =>
      input === '/api/v1/limiter/payments/pay-1/invoice'
        ? Promise.resolve({ ok: true, status: 200, blob: () => Promise.resolve(pdf) } as Response)
        : apiMock(input, init),
    );
    vi.stubGlobal('fetch', fetchMock);
    const createObjectURL = vi.fn(() => 'blob:invoice');
    stubObjectUrls(createObjectURL);
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(`${this.download} ${this.href}`);
    });
    await openHistory();

    await userEvent.click(await screen.findByRole('button', { name: 'Download invoice VBT-2026-000001' }));

    await vi.waitFor(() => expect(saved).toEqual(['VBT-2026-000001.pdf blob:invoice']));
    const download = fetchMock.mock.calls.find(([url]) => url === '/api/v1/limiter/payments/pay-1/invoice');
    expect(new Headers(download?.[1]?.headers).get('authorization')).toBe(`Bearer ${testAccessToken}`);
    expect(createObjectURL).toHaveBeenCalledWith(pdf);
  });

  it('says when an invoice cannot be downloaded', async () => {
    stubApi({
      '/api/v1/limiter/payments': { body: page },
      '/api/v1/limiter/payments/pay-1/invoice': { status: 404, body: { code: 'NOT_FOUND', message: 'x' } },
    });
    await openHistory();

    await userEvent.click(await screen.findByRole('button', { name: 'Download invoice VBT-2026-000001' }));

    expect(await screen.findByText('Could not download file')).toBeInTheDocument();
  });

  it('shows the breadcrumbs of spec §2', async () => {
    stubApi({ '/api/v1/limiter/payments': { body: page } });
    await openHistory();

    const trail = within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
    expect(trail.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/home');
    expect(trail.getByRole('link', { name: 'Billing' })).toHaveAttribute('href', '/billing');
    expect(trail.getByText('History')).toHaveAttribute('aria-current', 'page');
  });
});
