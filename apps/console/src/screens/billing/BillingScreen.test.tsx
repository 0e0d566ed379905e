import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, type Mock, vi } from 'vitest';
import { documentNavigation } from '../../app/documentNavigation';
import { routes } from '../../app/routes';
import { renderRoutes } from '../../test/renderRoutes';
import { type StubAnswer, stubApi } from '../../test/stubApi';
import { sampleCountries, sampleUsages, vatRateOf } from './billingTestData';

const checkoutUrl = 'https://checkout.example.com/pay/cs_test_1';

function stubBilling(answers: Record<string, StubAnswer> = {}) {
  return stubApi({
    '/api/v1/limiter/countries': { body: sampleCountries },
    '/api/v1/limiter/usages': { body: sampleUsages },
    '/api/v1/limiter/vat-rate/BE': { body: vatRateOf() },
    '/api/v1/limiter/payment-sessions': { status: 201, body: { sessionId: 'cs_test_1', url: checkoutUrl } },
    ...answers,
  });
}

async function openBilling() {
  const view = await renderRoutes(routes, { initialEntries: ['/billing'], signedIn: true });
  await screen.findByRole('heading', { level: 1, name: 'Billing and limits' });
  // The form waits for the profile that prefills it.
  await screen.findByRole('button', { name: 'Checkout' });
  return view;
}

const field = (name: RegExp) => screen.getByRole('textbox', { name });

async function setAmount(dollars: string) {
  await userEvent.clear(field(/^Amount/));
  if (dollars !== '') await userEvent.type(field(/^Amount/), dollars);
}

async function chooseCountry(name: string) {
  await userEvent.click(field(/^Country/));
  // The dropdown's opening transition keeps it display: none in jsdom.
  await userEvent.click(await screen.findByRole('option', { name, hidden: true }));
}

async function fillPrivateOrder({ dollars, country }: { dollars: string; country: string }) {
  await setAmount(dollars);
  await chooseCountry(country);
  await userEvent.click(screen.getByRole('radio', { name: 'Visa' }));
}

async function chooseCompany(name: string, vatNumber: string) {
  await userEvent.click(screen.getByRole('radio', { name: 'Company' }));
  await userEvent.type(await screen.findByRole('textbox', { name: /^Company name/ }), name);
  if (vatNumber !== '') await userEvent.type(field(/^VAT number/), vatNumber);
}

function sentRequests(fetchMock: ReturnType<typeof stubApi>, path: string) {
  return fetchMock.mock.calls.filter(([url]) => typeof url === 'string' && url.startsWith(`/api/v1${path}`));
}

async function confirmModal() {
  return within(await screen.findByRole('dialog', { name: 'Confirm payment' }));
}

/** The amount next to a label of the confirm modal's summary. */
function summaryValue(label: string) {
  return within(screen.getByTestId('payment-summary')).getByText(label, { selector: 'dt' }).nextElementSibling
    ?.textContent;
}

let assign: Mock<(url: string) => void>;
beforeEach(() => {
  assign = vi.fn<(url: string) => void>();
  vi.spyOn(documentNavigation, 'assign').mockImplementation(assign);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

// Filling the whole form takes a few seconds of simulated typing.
describe('billing screen', { timeout: 20_000 }, () => {
  it('shows the balance, the usage per product and a form prefilled from the profile', async () => {
    stubBilling();
    await openBilling();

    expect(await screen.findByTestId('billing-balance')).toHaveTextContent('$4.89');
    expect(await screen.findByText('HTTP API')).toBeInTheDocument();
    expect(field(/^Amount/)).toHaveValue('$10');
    expect(field(/^E-mail/)).toHaveValue('ada@example.com');
    expect(field(/^Full name/)).toHaveValue('Ada Lovelace');
    expect(screen.getByRole('link', { name: 'Billing history' })).toHaveAttribute('href', '/billing/history');
  });

  it('shows every message of spec §5 and checks nothing with the server', async () => {
    const fetchMock = stubBilling();
    await openBilling();

    await setAmount('5');
    await userEvent.clear(field(/^E-mail/));
    await userEvent.clear(field(/^Full name/));
    await chooseCompany(' ', 'BE 0123');
    await userEvent.click(screen.getByRole('button', { name: 'Checkout' }));

    expect(await screen.findByText('Invalid credits')).toBeInTheDocument();
    expect(screen.getByText('This field is required')).toBeInTheDocument();
    expect(screen.getByText('Invalid full name')).toBeInTheDocument();
    expect(screen.getByText('Select valid country')).toBeInTheDocument();
    expect(screen.getByText('Required company name')).toBeInTheDocument();
    expect(screen.getByText('Invalid vatNumber')).toBeInTheDocument();
    expect(screen.getByText('Invalid payment method')).toBeInTheDocument();

    await setAmount('1000.01');
    await userEvent.type(field(/^E-mail/), 'ab');
    await userEvent.click(screen.getByRole('button', { name: 'Checkout' }));
    expect(await screen.findByText('Use at least 3 characters')).toBeInTheDocument();
    expect(screen.getByText('Invalid credits')).toBeInTheDocument();

    await userEvent.type(field(/^E-mail/), 'cdefgh');
    await userEvent.click(screen.getByRole('button', { name: 'Checkout' }));
    expect(await screen.findByText('Please fill in a valid email address')).toBeInTheDocument();

    await userEvent.type(field(/^E-mail/), '@a-very-long-domain-name.example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Checkout' }));
    expect(await screen.findByText('Use maximum 32 characters')).toBeInTheDocument();

    expect(sentRequests(fetchMock, '/limiter/vat-rate')).toHaveLength(0);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('translates the messages of the payment form', async () => {
    stubBilling();
    const { i18n } = await openBilling();
    await i18n.changeLanguage('fr');

    await setAmount('');
    await userEvent.click(screen.getByRole('button', { name: 'Payer' }));

    expect(await screen.findByText('Montant de crédit invalide')).toBeInTheDocument();
    expect(screen.getByText('Sélectionnez un pays valide')).toBeInTheDocument();
    expect(screen.getByText('Moyen de paiement invalide')).toBeInTheDocument();
  });

  it('adds 21 % VAT to $20, then sends the payment-init payload in cents and leaves for the checkout', async () => {
    const fetchMock = stubBilling();
    await openBilling();

    await fillPrivateOrder({ dollars: '20', country: 'Belgium' });
    await userEvent.click(screen.getByRole('button', { name: 'Checkout' }));

    const modal = await confirmModal();
    expect(summaryValue('Credits')).toBe('$20.00');
    expect(summaryValue('VAT rate')).toBe('21%');
    expect(summaryValue('VAT')).toBe('$4.20');
    expect(summaryValue('Total')).toBe('$24.20');
    expect(modal.queryByText('Reverse charge')).not.toBeInTheDocument();
    // A private customer's check carries no VAT number.
    expect(sentRequests(fetchMock, '/limiter/vat-rate').map(([url]) => url)).toEqual([
      '/api/v1/limiter/vat-rate/BE',
    ]);

    await userEvent.click(modal.getByRole('button', { name: 'Confirm and pay' }));

    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith(checkoutUrl));
    const [request] = sentRequests(fetchMock, '/limiter/payment-sessions');
    expect(request?.[1]?.method).toBe('POST');
    expect(JSON.parse(request?.[1]?.body as string)).toEqual({
      email: 'ada@example.com',
      full_name: 'Ada Lovelace',
      customerType: 'private',
      vat_number: '',
      company_name: '',
      company_address: '',
      countryIso: 'BE',
      paymentMethod: 'visa',
      credits: 2000,
      vatRate: 21,
      totalPrice: 2420,
    });
  });

  it('rounds 25.5 % of $10 to $2.55', async () => {
    stubBilling({
      '/api/v1/limiter/vat-rate/FI': {
        body: vatRateOf({
          country: 'FI',
          countryName: 'Finland',
          standardRate: 25.5,
          countryStandardRate: 25.5,
        }),
      },
    });
    await openBilling();

    await fillPrivateOrder({ dollars: '10', country: 'Finland' });
    await userEvent.click(screen.getByRole('button', { name: 'Checkout' }));

    await confirmModal();
    expect(summaryValue('VAT rate')).toBe('25.5%');
    expect(summaryValue('VAT')).toBe('$2.55');
    expect(summaryValue('Total')).toBe('$12.55');
  });

  it('shows the invalid VAT error when the server refutes a company VAT number', async () => {
    const fetchMock = stubBilling({
      '/api/v1/limiter/vat-rate/BE': {
        body: vatRateOf({ isValidVATNumber: false, vatNumber: 'BE0123456789', validation: 'vies' }),
      },
    });
    await openBilling();

    await fillPrivateOrder({ dollars: '20', country: 'Belgium' });
    await chooseCompany('Acme', 'BE0123456789');
    await userEvent.click(screen.getByRole('button', { name: 'Checkout' }));

    expect(
      await screen.findByText(
        'This VAT number is not valid in Belgium. Check it, or leave the field empty to pay VAT.',
      ),
    ).toBeInTheDocument();
    expect(field(/^VAT number/)).toHaveAttribute('aria-invalid', 'true');
    expect(sentRequests(fetchMock, '/limiter/vat-rate').map(([url]) => url)).toEqual([
      '/api/v1/limiter/vat-rate/BE?vatNumber=BE0123456789',
    ]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("shows the server's format message under the VAT number field", async () => {
    stubBilling({
      '/api/v1/limiter/vat-rate/BE': {
        status: 400,
        body: {
          code: 'VALIDATION_FAILED',
          message: 'Invalid request',
          details: [{ location: 'query', path: ['vatNumber'], message: 'Invalid vatNumber' }],
        },
      },
    });
    await openBilling();

    await fillPrivateOrder({ dollars: '20', country: 'Belgium' });
    await chooseCompany('Acme', 'BE0123');
    await userEvent.click(screen.getByRole('button', { name: 'Checkout' }));

    expect(await screen.findByText('Invalid vatNumber')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('charges no VAT under the reverse charge and sends the company details', async () => {
    const fetchMock = stubBilling({
      '/api/v1/limiter/vat-rate/BE': {
        body: vatRateOf({
          isValidVATNumber: true,
          vatNumber: 'BE0123456749',
          validation: 'vies',
          treatment: 'reverse_charge',
          reverseCharge: true,
          standardRate: 0,
        }),
      },
    });
    await openBilling();

    await fillPrivateOrder({ dollars: '20', country: 'Belgium' });
    await chooseCompany('Acme', 'BE0123456749');
    await userEvent.type(field(/^Company address/), '1 Main Street, Brussels');
    await userEvent.click(screen.getByRole('button', { name: 'Checkout' }));

    const modal = await confirmModal();
    expect(summaryValue('Billed to')).toBe('Acme');
    expect(summaryValue('VAT rate')).toBe('0%');
    expect(summaryValue('VAT')).toBe('$0.00');
    expect(summaryValue('Total')).toBe('$20.00');
    expect(modal.getByText('Reverse charge')).toBeInTheDocument();

    await userEvent.click(modal.getByRole('button', { name: 'Confirm and pay' }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith(checkoutUrl));
    const [request] = sentRequests(fetchMock, '/limiter/payment-sessions');
    expect(JSON.parse(request?.[1]?.body as string)).toMatchObject({
      customerType: 'company',
      company_name: 'Acme',
      company_address: '1 Main Street, Brussels',
      vat_number: 'BE0123456749',
      credits: 2000,
      vatRate: 0,
      totalPrice: 2000,
    });
  });

  it('toasts a failed checkout and stays on the confirm modal', async () => {
    stubBilling({
      '/api/v1/limiter/payment-sessions': {
        status: 502,
        body: { code: 'PAYMENT_PROVIDER_ERROR', message: 'Stripe is down', errorId: 'err-1' },
      },
    });
    const { router } = await openBilling();

    await fillPrivateOrder({ dollars: '20', country: 'Belgium' });
    await userEvent.click(screen.getByRole('button', { name: 'Checkout' }));
    const modal = await confirmModal();
    await userEvent.click(modal.getByRole('button', { name: 'Confirm and pay' }));

    expect(
      await screen.findByText('The payment could not be started. Please try again.'),
    ).toBeInTheDocument();
    expect(modal.getByRole('button', { name: 'Confirm and pay' })).toBeEnabled();
    expect(assign).not.toHaveBeenCalled();
    expect(router.state.location.pathname).toBe('/billing');
  });
});

describe('billing routes', () => {
  it('redirects /payment to /billing', async () => {
    stubBilling();
    const { router } = await renderRoutes(routes, { initialEntries: ['/payment'], signedIn: true });

    expect(await screen.findByRole('heading', { level: 1, name: 'Billing and limits' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/billing');
  });

  it('names the page, marks the sidebar entry and shows the breadcrumbs', async () => {
    stubBilling();
    await openBilling();

    expect(document.title).toContain('Billing and limits');
    const sidebar = within(screen.getByRole('navigation', { name: 'Main navigation' }));
    expect(sidebar.getByRole('link', { name: 'Billing' })).toHaveAttribute('aria-current', 'page');
    const trail = within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
    expect(trail.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/home');
    expect(trail.getByText('Billing')).toHaveAttribute('aria-current', 'page');
  });
});
