/**
 * The card rules of the sandbox checkout: the form's own checks (number, expiry, security code,
 * name), then what a test card does. The numbers are Stripe's documented test cards, so people
 * who know one know the other; any other number is refused, real cards included.
 */

export type CardBrand =
  'visa' | 'mastercard' | 'amex' | 'discover' | 'diners' | 'jcb' | 'unionpay' | 'unknown';

export interface CardInput {
  number: string;
  /** MM/YY, MM / YY, MM/YYYY or MMYY. */
  expiry: string;
  cvc: string;
  name: string;
}

export type CardField = keyof CardInput;
export type CardProblem =
  'number_invalid' | 'expiry_invalid' | 'expiry_past' | 'cvc_invalid' | 'name_required';

export interface CheckedCard {
  /** Digits only. */
  number: string;
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
}

export type CardCheck =
  { ok: true; card: CheckedCard } | { ok: false; problems: Partial<Record<CardField, CardProblem>> };

export type DeclineReason =
  | 'generic_decline'
  | 'insufficient_funds'
  | 'lost_card'
  | 'stolen_card'
  | 'expired_card'
  | 'incorrect_cvc'
  | 'processing_error'
  | 'not_a_test_card';

export type CardOutcome = { approved: true } | { approved: false; reason: DeclineReason };

/** Test cards that pay, by brand. */
export const approvedTestCards: readonly { number: string; brand: CardBrand }[] = [
  { number: '4242424242424242', brand: 'visa' },
  { number: '4000056655665556', brand: 'visa' },
  { number: '5555555555554444', brand: 'mastercard' },
  { number: '2223003122003222', brand: 'mastercard' },
  { number: '5200828282828210', brand: 'mastercard' },
  { number: '5105105105105100', brand: 'mastercard' },
  { number: '378282246310005', brand: 'amex' },
  { number: '371449635398431', brand: 'amex' },
  { number: '6011111111111117', brand: 'discover' },
  { number: '6011000990139424', brand: 'discover' },
  { number: '3056930009020004', brand: 'diners' },
  { number: '36227206271667', brand: 'diners' },
  { number: '3566002020360505', brand: 'jcb' },
  { number: '6200000000000005', brand: 'unionpay' },
];

/** Test cards that are declined, with the reason the card network would give. */
export const declinedTestCards: readonly { number: string; reason: DeclineReason }[] = [
  { number: '4000000000000002', reason: 'generic_decline' },
  { number: '4000000000009995', reason: 'insufficient_funds' },
  { number: '4000000000009987', reason: 'lost_card' },
  { number: '4000000000009979', reason: 'stolen_card' },
  { number: '4000000000000069', reason: 'expired_card' },
  { number: '4000000000000127', reason: 'incorrect_cvc' },
  { number: '4000000000000119', reason: 'processing_error' },
];

export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The brand from the number's leading digits (issuer identification number ranges). */
export function brandOf(digits: string): CardBrand {
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^(6011|64[4-9]|65)/.test(digits)) return 'discover';
  if (/^(30[0-5]|309|36|3[89])/.test(digits)) return 'diners';
  if (/^35(2[89]|[3-8]\d)/.test(digits)) return 'jcb';
  if (/^62/.test(digits)) return 'unionpay';
  return 'unknown';
}

function parseExpiry(value: string): { month: number; year: number } | undefined {
  const match = /^(\d{1,2})\s*\/?\s*(\d{2}|\d{4})$/.exec(value.trim());
  if (!match) return undefined;
  const month = Number(match[1]);
  const year = match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  if (month < 1 || month > 12) return undefined;
  return { month, year };
}

/** The form's checks, as a card form does them before asking the bank anything. */
export function checkCard(input: CardInput, now: Date = new Date()): CardCheck {
  const problems: Partial<Record<CardField, CardProblem>> = {};
  const number = input.number.replace(/[\s-]/g, '');
  const brand = brandOf(number);
  if (!/^\d{12,19}$/.test(number) || !luhnValid(number)) problems.number = 'number_invalid';

  const expiry = parseExpiry(input.expiry);
  if (!expiry) {
    problems.expiry = 'expiry_invalid';
  } else {
    const thisMonth = now.getUTCFullYear() * 12 + now.getUTCMonth();
    const cardMonth = expiry.year * 12 + (expiry.month - 1);
    // A card works until the end of its expiry month; nobody issues one for more than 20 years.
    if (cardMonth < thisMonth) problems.expiry = 'expiry_past';
    else if (cardMonth > thisMonth + 20 * 12) problems.expiry = 'expiry_invalid';
  }

  const cvcLength = brand === 'amex' ? 4 : 3;
  if (!new RegExp(`^\\d{${cvcLength}}$`).test(input.cvc.trim())) problems.cvc = 'cvc_invalid';
  if (input.name.trim().length === 0) problems.name = 'name_required';

  if (Object.keys(problems).length > 0 || !expiry) return { ok: false, problems };
  return {
    ok: true,
    card: { number, brand, last4: number.slice(-4), expMonth: expiry.month, expYear: expiry.year },
  };
}

/** What the sandbox "bank" answers for a card that passed the form's checks. */
export function testCardOutcome(card: CheckedCard): CardOutcome {
  if (approvedTestCards.some((test) => test.number === card.number)) return { approved: true };
  const declined = declinedTestCards.find((test) => test.number === card.number);
  return { approved: false, reason: declined?.reason ?? 'not_a_test_card' };
}
