import { describe, expect, it } from 'vitest';
import {
  approvedTestCards,
  brandOf,
  checkCard,
  declinedTestCards,
  luhnValid,
  testCardOutcome,
  type CardInput,
} from './sandbox-cards.js';

const now = new Date('2026-03-15T10:00:00Z');
const card = (changes: Partial<CardInput> = {}): CardInput => ({
  number: '4242 4242 4242 4242',
  expiry: '12/30',
  cvc: '123',
  name: 'Zoë Müller',
  ...changes,
});

function outcomeOf(input: CardInput) {
  const checked = checkCard(input, now);
  if (!checked.ok) throw new Error(`card refused: ${JSON.stringify(checked.problems)}`);
  return testCardOutcome(checked.card);
}

describe('sandbox cards', () => {
  it('knows the Luhn check', () => {
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(luhnValid('79927398713')).toBe(true);
    expect(luhnValid('4242a42424242424')).toBe(false);
  });

  it('lists only Luhn-valid test numbers whose brand matches their number', () => {
    for (const test of approvedTestCards) {
      expect(luhnValid(test.number), test.number).toBe(true);
      expect(brandOf(test.number), test.number).toBe(test.brand);
    }
    for (const test of declinedTestCards) expect(luhnValid(test.number), test.number).toBe(true);
  });

  it('approves the success test cards of every brand, with spaces or dashes', () => {
    expect(outcomeOf(card())).toEqual({ approved: true });
    expect(outcomeOf(card({ number: '5555-5555-5555-4444' }))).toEqual({ approved: true });
    expect(outcomeOf(card({ number: '3782 822463 10005', cvc: '1234' }))).toEqual({ approved: true });
  });

  it('declines the decline test cards with their reason', () => {
    expect(outcomeOf(card({ number: '4000000000000002' }))).toEqual({
      approved: false,
      reason: 'generic_decline',
    });
    expect(outcomeOf(card({ number: '4000000000009995' }))).toEqual({
      approved: false,
      reason: 'insufficient_funds',
    });
    expect(outcomeOf(card({ number: '4000000000000069' }))).toEqual({
      approved: false,
      reason: 'expired_card',
    });
    expect(outcomeOf(card({ number: '4000000000000127' }))).toEqual({
      approved: false,
      reason: 'incorrect_cvc',
    });
  });

  it('declines any other valid number: real cards never go through the sandbox', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(outcomeOf(card({ number: '4111111111111111' }))).toEqual({
      approved: false,
      reason: 'not_a_test_card',
    });
  });

  it("checks the form's fields before anything else", () => {
    expect(checkCard(card({ number: '4242424242424241' }), now)).toEqual({
      ok: false,
      problems: { number: 'number_invalid' },
    });
    expect(checkCard(card({ number: '4242' }), now)).toMatchObject({
      problems: { number: 'number_invalid' },
    });
    expect(checkCard(card({ expiry: '13/30' }), now)).toMatchObject({
      problems: { expiry: 'expiry_invalid' },
    });
    expect(checkCard(card({ expiry: 'soon' }), now)).toMatchObject({
      problems: { expiry: 'expiry_invalid' },
    });
    expect(checkCard(card({ expiry: '02/26' }), now)).toMatchObject({ problems: { expiry: 'expiry_past' } });
    expect(checkCard(card({ expiry: '12/2070' }), now)).toMatchObject({
      problems: { expiry: 'expiry_invalid' },
    });
    expect(checkCard(card({ cvc: '12' }), now)).toMatchObject({ problems: { cvc: 'cvc_invalid' } });
    expect(checkCard(card({ cvc: '1234' }), now)).toMatchObject({ problems: { cvc: 'cvc_invalid' } });
    expect(checkCard(card({ number: '378282246310005', cvc: '123' }), now)).toMatchObject({
      problems: { cvc: 'cvc_invalid' },
    });
    expect(checkCard(card({ name: '  ' }), now)).toMatchObject({ problems: { name: 'name_required' } });
    expect(checkCard({ number: '', expiry: '', cvc: '', name: '' }, now)).toEqual({
      ok: false,
      problems: {
        number: 'number_invalid',
        expiry: 'expiry_invalid',
        cvc: 'cvc_invalid',
        name: 'name_required',
      },
    });
  });

  it('accepts a card until the end of its expiry month, in the usual spellings', () => {
    for (const expiry of ['03/26', '3/26', '03 / 26', '0326', '03/2026']) {
      const checked = checkCard(card({ expiry }), now);
      expect(checked.ok, expiry).toBe(true);
      if (checked.ok) expect(checked.card).toMatchObject({ expMonth: 3, expYear: 2026, last4: '4242' });
    }
  });
});
