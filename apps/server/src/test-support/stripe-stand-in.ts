import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  form: URLSearchParams;
}

/** Stands in for api.stripe.com: records what the SDK sends and answers as Stripe does. */
export class StripeStandIn {
  readonly requests: RecordedRequest[] = [];
  /** Answers to give, in order; the last one repeats. */
  answers: { status: number; body: unknown }[] = [];
  readonly #server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      this.requests.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        form,
      });
      const answer = this.answers.length > 1 ? this.answers.shift()! : this.answers[0]!;
      const body =
        typeof answer.body === 'function'
          ? (answer.body as (form: URLSearchParams) => unknown)(form)
          : answer.body;
      response.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': 'req_standin' });
      response.end(JSON.stringify(body));
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

/** A Checkout Session as Stripe answers it on creation, filled from the request. */
/** Expires 24 hours after `created` unless told otherwise, as Stripe's sessions do. */
export function sessionFor(
  form: URLSearchParams,
  id = 'cs_test_a1VerbatimStandInSession',
  created = 1_772_000_000,
) {
  return {
    id,
    object: 'checkout.session',
    amount_subtotal: Number(form.get('line_items[0][price_data][unit_amount]')),
    amount_total: Number(form.get('line_items[0][price_data][unit_amount]')),
    cancel_url: form.get('cancel_url'),
    client_reference_id: form.get('client_reference_id'),
    created,
    currency: form.get('line_items[0][price_data][currency]'),
    customer: null,
    customer_email: form.get('customer_email'),
    expires_at: created + 86_400,
    livemode: false,
    locale: form.get('locale'),
    metadata: { paymentId: form.get('metadata[paymentId]') },
    mode: 'payment',
    payment_intent: null,
    payment_status: 'unpaid',
    status: 'open',
    success_url: form.get('success_url'),
    url: `https://checkout.stripe.com/c/pay/${id}#fidkdWxOYHwnPyd1blpxYHZxWjA0`,
  };
}
