import type { VatNumberRegistry, VatRegistryAnswer } from './vat-number-registry.js';

/**
 * The EU's VIES through its REST API: POST {countryCode, vatNumber} to check-vat-number.
 *
 * A definite answer is a 200 with `valid: true|false`. Anything else means VIES could not tell:
 * a member state's register down or saturated (MS_UNAVAILABLE, MS_MAX_CONCURRENT_REQ…, answered
 * either as `userError` or as `errorWrappers` of `actionSucceed: false`, with a 200 or an error
 * status), a network failure, or no answer within the timeout. Only the errors that are about the
 * number itself (INVALID_INPUT, VAT_BLOCKED) count as invalid.
 */
export class ViesRestRegistry implements VatNumberRegistry {
  constructor(private readonly options: { url: string; timeoutMs: number }) {}

  async check(prefix: string, national: string): Promise<VatRegistryAnswer> {
    let response: Response;
    try {
      response = await fetch(this.options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ countryCode: prefix, vatNumber: national }),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      return unavailable(
        timedOut ? `no answer within ${this.options.timeoutMs} ms` : `request failed: ${describe(error)}`,
      );
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      return unavailable(
        timedOut
          ? `no answer within ${this.options.timeoutMs} ms`
          : `HTTP ${response.status} without a JSON body`,
      );
    }
    const errors = errorCodesOf(body);
    if (errors.some((code) => numberErrors.has(code))) return { status: 'invalid' };
    if (errors.length > 0) return unavailable(`HTTP ${response.status}, ${errors.join(', ')}`);
    if (!response.ok) return unavailable(`HTTP ${response.status}`);
    if (isRecord(body) && typeof body.valid === 'boolean') {
      return { status: body.valid ? 'valid' : 'invalid' };
    }
    return unavailable(`HTTP ${response.status} without a "valid" field`);
  }
}

/** VIES errors that judge the number, not the service. */
const numberErrors = new Set(['INVALID_INPUT', 'VAT_BLOCKED']);

/** The error codes of a VIES answer: `userError` (other than VALID/INVALID) and `errorWrappers[].error`. */
function errorCodesOf(body: unknown): string[] {
  if (!isRecord(body)) return [];
  const codes: string[] = [];
  if (typeof body.userError === 'string' && !['VALID', 'INVALID'].includes(body.userError)) {
    codes.push(body.userError);
  }
  if (Array.isArray(body.errorWrappers)) {
    for (const wrapper of body.errorWrappers as unknown[]) {
      if (isRecord(wrapper) && typeof wrapper.error === 'string') codes.push(wrapper.error);
    }
  }
  if (codes.length === 0 && body.actionSucceed === false) codes.push('actionSucceed false');
  return codes;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function unavailable(reason: string): VatRegistryAnswer {
  return { status: 'unavailable', reason };
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}
