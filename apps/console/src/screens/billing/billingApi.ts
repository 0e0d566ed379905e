import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  countriesSchema,
  type PaymentInitRequest,
  type PaymentSession,
  paymentSessionSchema,
  paymentsPageSchema,
  paymentsPageSize,
  usagesSchema,
  type VatRate,
  vatRateSchema,
} from '@verbatim/contracts';
import { apiBasePath, apiBlob, apiRequest } from '../../api/apiClient';

/** Every query of the billing screens starts with this key; a landed payment invalidates them all. */
export const billingQueryKey = ['billing'] as const;

/** `GET /limiter/countries`: fixed for the life of the page. */
export const countriesQuery = queryOptions({
  queryKey: [...billingQueryKey, 'countries'],
  queryFn: ({ signal }) => apiRequest('/limiter/countries', { schema: countriesSchema, signal }),
  staleTime: Infinity,
});

/** `GET /limiter/usages`: what each metered product has cost so far. */
export const usagesQuery = queryOptions({
  queryKey: [...billingQueryKey, 'usages'],
  queryFn: ({ signal }) => apiRequest('/limiter/usages', { schema: usagesSchema, signal }),
});

/** `GET /limiter/payments?start=&limit=10`: one page of the billing history. */
export function paymentsPageQuery(start: number) {
  return queryOptions({
    queryKey: [...billingQueryKey, 'payments', start],
    queryFn: ({ signal }) =>
      apiRequest(
        `/limiter/payments?${new URLSearchParams({ start: String(start), limit: String(paymentsPageSize) })}`,
        {
          schema: paymentsPageSchema,
          signal,
        },
      ),
    // The table keeps the page it shows while the next one loads, instead of flashing empty.
    placeholderData: keepPreviousData,
  });
}

/** `GET /limiter/vat-rate/{country}?vatNumber=`: the rate to apply, and whether the VAT number holds. */
export function fetchVatRate(country: string, vatNumber: string): Promise<VatRate> {
  const query = vatNumber === '' ? '' : `?${new URLSearchParams({ vatNumber })}`;
  return apiRequest(`/limiter/vat-rate/${encodeURIComponent(country)}${query}`, { schema: vatRateSchema });
}

/** `POST /limiter/payment-sessions`: the provider's checkout session to send the browser to. */
export function createPaymentSession(body: PaymentInitRequest): Promise<PaymentSession> {
  // Creating a checkout session means a round trip to the provider: more than the default 10 s.
  return apiRequest('/limiter/payment-sessions', {
    method: 'POST',
    schema: paymentSessionSchema,
    body,
    timeoutMs: 30_000,
  });
}

/**
 * The API path of an invoice from its `invoiceEnLocation`, which may be written with or without the
 * `/api/v1` prefix, or as an absolute URL of this origin. The PDF is fetched through the API client
 * because it needs the bearer token, which a plain link cannot send.
 */
export function invoiceApiPath(location: string): string {
  const url = new URL(location, window.location.origin);
  const path = `${url.pathname}${url.search}`;
  return path.startsWith(`${apiBasePath}/`) ? path.slice(apiBasePath.length) : path;
}

/** Downloads an invoice PDF and saves it as `{invoiceNumber}.pdf`. */
export async function downloadInvoice(location: string, invoiceNumber: string): Promise<void> {
  const pdf = await apiBlob(invoiceApiPath(location), { timeoutMs: 60_000 });
  saveBlob(pdf, `${invoiceNumber.replace(/[^\w.-]+/g, '_')}.pdf`);
}

/** Hands a blob to the browser as a download named `fileName`. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next turn: some browsers start the download only after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
