import { isMemberState, type MemberState } from './eu-vat-rates.js';

/**
 * Format and check-digit validation of EU VAT numbers, offline. A number that passes is well formed;
 * only VIES can say it is registered. Each member state has its format and, where the algorithm is
 * published and was confirmed against real numbers (see vat-number.test.ts), its check digits.
 * Where a kind of number has no confirmed algorithm (Latvian numbers of persons, Czech birth numbers
 * from before 1954, Spanish K/L/M numbers), only its format is checked, and rules that merely narrow
 * the range of issued numbers (Italian office codes, Slovak third digits…) are left out: a wrong
 * rule would turn real customers away, while VIES, when configured, has the last word anyway.
 */

/** The prefix of a member state's VAT numbers: its ISO code, but EL for Greece. */
export function vatPrefixOf(memberState: MemberState): string {
  return memberState === 'GR' ? 'EL' : memberState;
}

/** Separators people type inside VAT numbers. */
const separators = /[\s.\-_/:,()]/g;

/** Upper-case, without separators. */
export function compactVatNumber(input: string): string {
  return input.replace(separators, '').toUpperCase();
}

export type VatNumberProblem =
  /** The number carries the prefix of another member state than the customer's. */
  | 'other_country'
  /** Wrong length or characters for that member state. */
  | 'format'
  /** Well formed, but its check digits do not match. */
  | 'checksum';

export type VatNumberCheck =
  | {
      valid: true;
      /** The VAT prefix (EL for Greece) and the national part, as VIES wants them. */
      prefix: string;
      national: string;
      /** Prefix and national part together: how the number is printed. */
      normalized: string;
    }
  | { valid: false; problem: VatNumberProblem; normalized: string };

type Verdict = 'valid' | 'format' | 'checksum';

/**
 * Judges a VAT number of the given member state on its format and check digits. The input may
 * carry the member state's prefix (for Greece EL, or GR as people often type it) or not.
 */
export function checkVatNumber(input: string, memberState: MemberState): VatNumberCheck {
  const compact = compactVatNumber(input);
  const prefix = vatPrefixOf(memberState);
  const ownPrefixes = memberState === 'GR' ? ['EL', 'GR'] : [prefix];
  const ownPrefix = ownPrefixes.find((candidate) => compact.startsWith(candidate));
  // A French number may start with a letter key that looks like the prefix ("FR" is a valid key),
  // so the whole input is tried as a national number too.
  const candidates = (ownPrefix ? [compact.slice(ownPrefix.length), compact] : [compact]).map((national) =>
    canonicalNational(memberState, national),
  );
  const verdicts = candidates.map((national) => ({
    national,
    verdict: nationalValidators[memberState](national),
  }));
  const accepted = verdicts.find((entry) => entry.verdict === 'valid');
  if (accepted) {
    return {
      valid: true,
      prefix,
      national: accepted.national,
      normalized: `${prefix}${accepted.national}`,
    };
  }
  const otherPrefix = compact.slice(0, 2);
  if (!ownPrefix && isOtherMemberStatePrefix(otherPrefix, memberState)) {
    return { valid: false, problem: 'other_country', normalized: compact };
  }
  const first = verdicts[0];
  return {
    valid: false,
    problem: first?.verdict === 'checksum' ? 'checksum' : 'format',
    normalized: `${prefix}${first?.national ?? compact}`,
  };
}

/** The national part in its full length: older numbers are still written without leading zeros. */
function canonicalNational(memberState: MemberState, national: string): string {
  switch (memberState) {
    case 'BE':
      return /^\d{9}$/.test(national) ? `0${national}` : national;
    case 'GR':
      return /^\d{8}$/.test(national) ? `0${national}` : national;
    case 'NL': {
      const match = /^(\d{7,8})(B\d{2})$/.exec(national);
      return match ? `${(match[1] ?? '').padStart(9, '0')}${match[2] ?? ''}` : national;
    }
    default:
      return national;
  }
}

function isOtherMemberStatePrefix(letters: string, memberState: MemberState): boolean {
  if (!/^[A-Z]{2}$/.test(letters)) return false;
  const country = letters === 'EL' ? 'GR' : letters;
  return isMemberState(country) && country !== memberState;
}

// ---------------------------------------------------------------------------------------------
// Check-digit helpers

function digitsOf(value: string): number[] {
  return [...value].map(Number);
}

/** Σ digit × weight, over as many digits as there are weights. */
function weightedSum(value: string, weights: readonly number[]): number {
  const digits = digitsOf(value);
  return weights.reduce((sum, weight, index) => sum + weight * (digits[index] ?? 0), 0);
}

/** The Luhn (mod 10) sum: every second digit from the right doubled, the digits of products added. */
function luhnSum(value: string): number {
  return digitsOf(value)
    .reverse()
    .reduce((sum, digit, index) => {
      if (index % 2 === 0) return sum + digit;
      const doubled = digit * 2;
      return sum + (doubled > 9 ? doubled - 9 : doubled);
    }, 0);
}

function luhnValid(value: string): boolean {
  return luhnSum(value) % 10 === 0;
}

/** The Luhn check digit to append to a number. */
function luhnCheckDigit(value: string): number {
  return (10 - (luhnSum(`${value}0`) % 10)) % 10;
}

/** ISO 7064 MOD 11,10 (German and Croatian numbers): true when the last digit checks. */
function iso7064Mod11_10Valid(value: string): boolean {
  let product = 10;
  for (const digit of digitsOf(value.slice(0, -1))) {
    const sum = (digit + product) % 10 || 10;
    product = (sum * 2) % 11;
  }
  return (11 - product) % 10 === Number(value.at(-1));
}

/** ISO 7064 MOD 97-10 over digits and letters (A = 10 … Z = 35): true when the remainder is 1. */
function iso7064Mod97_10Valid(value: string): boolean {
  let remainder = 0;
  for (const character of value) {
    const code = Number.parseInt(character, 36);
    for (const digit of String(code)) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

const checkedBy = (valid: boolean): Verdict => (valid ? 'valid' : 'checksum');

/** The remainder of a Euclidean division: never negative, unlike `%`. */
function mod(value: number, modulus: number): number {
  return ((value % modulus) + modulus) % modulus;
}

// ---------------------------------------------------------------------------------------------
// One validator per member state, on the national part (no prefix).

const nationalValidators: Record<MemberState, (national: string) => Verdict> = {
  // Austria: U and 8 digits; weights 1,2,1,2,1,2,1 with the digits of products added, plus 4.
  AT(national) {
    if (!/^U\d{8}$/.test(national)) return 'format';
    const digits = digitsOf(national.slice(1));
    const sum = digits.slice(0, 7).reduce((total, digit, index) => {
      const product = digit * (index % 2 === 0 ? 1 : 2);
      return total + Math.floor(product / 10) + (product % 10);
    }, 0);
    return checkedBy((10 - ((sum + 4) % 10)) % 10 === digits[7]);
  },
  // Belgium: 10 digits starting with 0 or 1; 97 − (first 8 digits mod 97).
  BE(national) {
    if (!/^[01]\d{9}$/.test(national)) return 'format';
    return checkedBy(97 - (Number(national.slice(0, 8)) % 97) === Number(national.slice(8)));
  },
  // Bulgaria: 9 digits (legal entities) or 10 (persons, foreigners, others), each with its weights.
  BG(national) {
    if (/^\d{9}$/.test(national)) {
      let check = weightedSum(national, [1, 2, 3, 4, 5, 6, 7, 8]) % 11;
      if (check === 10) check = weightedSum(national, [3, 4, 5, 6, 7, 8, 9, 10]) % 11;
      return checkedBy(check % 10 === Number(national[8]));
    }
    if (!/^\d{10}$/.test(national)) return 'format';
    const last = Number(national[9]);
    const person = (weightedSum(national, [2, 4, 8, 5, 10, 9, 7, 3, 6]) % 11) % 10 === last;
    const foreigner = weightedSum(national, [21, 19, 17, 13, 11, 9, 7, 3, 1]) % 10 === last;
    const other = (11 - (weightedSum(national, [4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11)) % 11 === last;
    return checkedBy(person || foreigner || other);
  },
  // Cyprus: 8 digits and a check letter.
  CY(national) {
    if (!/^\d{8}[A-Z]$/.test(national)) return 'format';
    const oddValues = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21];
    const sum = digitsOf(national.slice(0, 8)).reduce(
      (total, digit, index) => total + (index % 2 === 0 ? (oddValues[digit] ?? 0) : digit),
      0,
    );
    return checkedBy(String.fromCharCode(65 + (sum % 26)) === national[8]);
  },
  // Czechia: 8 digits (legal entities), 9 starting with 6 (persons without a birth number), or a
  // birth number of 10 digits (divisible by 11) or 9 (issued before 1954, no check digit).
  CZ(national) {
    if (/^\d{8}$/.test(national)) {
      const remainder = (11 - (weightedSum(national, [8, 7, 6, 5, 4, 3, 2]) % 11)) % 11;
      return checkedBy((remainder || 1) % 10 === Number(national[7]));
    }
    if (/^6\d{8}$/.test(national)) {
      const sum = weightedSum(national.slice(1), [8, 7, 6, 5, 4, 3, 2]) % 11;
      return checkedBy(mod(8 - ((10 - sum) % 11), 10) === Number(national[8]));
    }
    if (/^\d{10}$/.test(national)) {
      const head = Number(national.slice(0, 9));
      return checkedBy(Number(national) % 11 === 0 || (head % 11 === 10 && national[9] === '0'));
    }
    return /^\d{9}$/.test(national) ? 'valid' : 'format';
  },
  // Germany: 9 digits, not starting with 0; ISO 7064 MOD 11,10.
  DE(national) {
    if (!/^[1-9]\d{8}$/.test(national)) return 'format';
    return checkedBy(iso7064Mod11_10Valid(national));
  },
  // Denmark: 8 digits, not starting with 0; weighted sum divisible by 11.
  DK(national) {
    if (!/^[1-9]\d{7}$/.test(national)) return 'format';
    return checkedBy(weightedSum(national, [2, 7, 6, 5, 4, 3, 2, 1]) % 11 === 0);
  },
  // Estonia: 9 digits; weights 3,7,1 repeated, sum divisible by 10.
  EE(national) {
    if (!/^\d{9}$/.test(national)) return 'format';
    return checkedBy(weightedSum(national, [3, 7, 1, 3, 7, 1, 3, 7, 1]) % 10 === 0);
  },
  // Spain: DNI (8 digits and a letter), NIE (X/Y/Z, 7 digits, a letter), CIF (entity letter,
  // 7 digits, a digit or letter check), or K/L/M numbers (format only).
  ES(national) {
    const dniLetters = 'TRWAGMYFPDXBNJZSQVHLCKE';
    if (/^\d{8}[A-Z]$/.test(national)) {
      return checkedBy(dniLetters[Number(national.slice(0, 8)) % 23] === national[8]);
    }
    if (/^[XYZ]\d{7}[A-Z]$/.test(national)) {
      const number = `${'XYZ'.indexOf(national[0] ?? '')}${national.slice(1, 8)}`;
      return checkedBy(dniLetters[Number(number) % 23] === national[8]);
    }
    if (/^[ABCDEFGHJNPQRSUVW]\d{7}[0-9A-J]$/.test(national)) {
      const check = luhnCheckDigit(national.slice(1, 8));
      const last = national[8];
      return checkedBy(last === String(check) || last === 'JABCDEFGHI'[check]);
    }
    return /^[KLM]\d{7}[A-Z]$/.test(national) ? 'valid' : 'format';
  },
  // Finland: 8 digits; weights 7,9,10,5,8,4,2, 11 − remainder (a remainder of 1 is never issued).
  FI(national) {
    if (!/^\d{8}$/.test(national)) return 'format';
    const remainder = weightedSum(national, [7, 9, 10, 5, 8, 4, 2]) % 11;
    if (remainder === 1) return 'checksum';
    return checkedBy((remainder === 0 ? 0 : 11 - remainder) === Number(national[7]));
  },
  // France: a 2-character key and the 9-digit SIREN (Luhn, except Monaco's 000… numbers). Old keys
  // are digits, (SIREN × 100 + 12) mod 97; new keys use letters (no I or O).
  FR(national) {
    if (!/^[0-9A-HJ-NP-Z]{2}\d{9}$/.test(national)) return 'format';
    const key = national.slice(0, 2);
    const siren = national.slice(2);
    if (!siren.startsWith('000') && !luhnValid(siren)) return 'checksum';
    if (/^\d{2}$/.test(key)) return checkedBy(Number(key) === Number(`${siren}12`) % 97);
    const alphabet = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';
    const first = alphabet.indexOf(key[0] ?? '');
    const second = alphabet.indexOf(key[1] ?? '');
    const check = first < 10 ? first * 24 + second - 10 : first * 34 + second - 100;
    return checkedBy((Number(siren) + 1 + Math.floor(check / 11)) % 11 === check % 11);
  },
  // Greece: 9 digits; weights 256…2 (powers of 2), mod 11, mod 10.
  GR(national) {
    if (!/^\d{9}$/.test(national)) return 'format';
    const sum = weightedSum(national, [256, 128, 64, 32, 16, 8, 4, 2]);
    return checkedBy((sum % 11) % 10 === Number(national[8]));
  },
  // Croatia: the 11-digit OIB; ISO 7064 MOD 11,10.
  HR(national) {
    if (!/^\d{11}$/.test(national)) return 'format';
    return checkedBy(iso7064Mod11_10Valid(national));
  },
  // Hungary: 8 digits; weights 9,7,3,1,9,7,3.
  HU(national) {
    if (!/^\d{8}$/.test(national)) return 'format';
    const check = (10 - (weightedSum(national, [9, 7, 3, 1, 9, 7, 3]) % 10)) % 10;
    return checkedBy(check === Number(national[7]));
  },
  // Ireland: 7 digits, a check letter and an optional second letter (since 2013), or the old form
  // with a letter, + or * in second place.
  IE(national) {
    const alphabet = 'WABCDEFGHIJKLMNOPQRSTUV';
    const checkLetter = (digits: string, extra: string | undefined) => {
      const sum =
        weightedSum(digits, [8, 7, 6, 5, 4, 3, 2]) + 9 * (extra ? Math.max(alphabet.indexOf(extra), 0) : 0);
      return alphabet[sum % 23];
    };
    if (/^\d{7}[A-W][A-IW]?$/.test(national)) {
      return checkedBy(checkLetter(national.slice(0, 7), national[8]) === national[7]);
    }
    if (/^\d[A-Z+*]\d{5}[A-W]$/.test(national)) {
      return checkedBy(checkLetter(`0${national.slice(2, 7)}${national[0]}`, undefined) === national[7]);
    }
    return 'format';
  },
  // Italy: 11 digits, a company number that is not all zeros, Luhn.
  IT(national) {
    if (!/^\d{11}$/.test(national) || /^0{7}/.test(national)) return 'format';
    return checkedBy(luhnValid(national));
  },
  // Lithuania: 9 digits (legal entities) or 12 (others); weights 1…9 cycling, then 3…9,1,2 if needed.
  LT(national) {
    if (!/^(\d{9}|\d{12})$/.test(national)) return 'format';
    const head = national.slice(0, -1);
    const weights = (offset: number) => [...head].map((_, index) => 1 + ((index + offset) % 9));
    let check = weightedSum(head, weights(0)) % 11;
    if (check === 10) check = weightedSum(head, weights(2)) % 11;
    return checkedBy(check % 10 === Number(national.at(-1)));
  },
  // Luxembourg: 8 digits; the first 6 mod 89 are the last 2.
  LU(national) {
    if (!/^\d{8}$/.test(national)) return 'format';
    return checkedBy(Number(national.slice(0, 6)) % 89 === Number(national.slice(6)));
  },
  // Latvia: 11 digits; legal entities (first digit above 3) have a weighted check; persons'
  // numbers are checked on their format only.
  LV(national) {
    if (!/^\d{11}$/.test(national)) return 'format';
    if (Number(national[0]) <= 3) return 'valid';
    return checkedBy(weightedSum(national, [9, 1, 4, 8, 3, 10, 2, 5, 7, 6, 1]) % 11 === 3);
  },
  // Malta: 8 digits, not starting with 0; the last 2 are 37 − (weighted sum mod 37).
  MT(national) {
    if (!/^[1-9]\d{7}$/.test(national)) return 'format';
    const check = 37 - (weightedSum(national, [3, 4, 6, 7, 8, 9]) % 37);
    return checkedBy(check === Number(national.slice(6)));
  },
  // Netherlands: 9 digits, B, 2 digits (not 00). Either the 11-test of the RSIN/BSN, or, for the
  // numbers of sole traders since 2020, ISO 7064 MOD 97-10 over "NL" and the number.
  NL(national) {
    if (!/^\d{9}B\d{2}$/.test(national) || national.endsWith('B00')) return 'format';
    const digits = national.slice(0, 9);
    const elevenTest = (weightedSum(digits, [9, 8, 7, 6, 5, 4, 3, 2]) - Number(digits[8])) % 11 === 0;
    return checkedBy((elevenTest && !/^0{9}$/.test(digits)) || iso7064Mod97_10Valid(`NL${national}`));
  },
  // Poland: 10 digits; weights 6,5,7,2,3,4,5,6,7 mod 11 (10 is never issued).
  PL(national) {
    if (!/^\d{10}$/.test(national)) return 'format';
    return checkedBy(weightedSum(national, [6, 5, 7, 2, 3, 4, 5, 6, 7]) % 11 === Number(national[9]));
  },
  // Portugal: 9 digits, not starting with 0; weights 9…2, 11 − remainder (10 and 11 give 0).
  PT(national) {
    if (!/^[1-9]\d{8}$/.test(national)) return 'format';
    const check = 11 - (weightedSum(national, [9, 8, 7, 6, 5, 4, 3, 2]) % 11);
    return checkedBy((check > 9 ? 0 : check) === Number(national[8]));
  },
  // Romania: 2 to 10 digits (CIF; weights 7,5,3,2,1,7,5,3,2 right-aligned) or a 13-digit personal
  // code (CNP; weights 2,7,9,1,4,6,3,5,8,2,7,9).
  RO(national) {
    if (/^[1-9]\d{12}$/.test(national)) {
      const remainder = weightedSum(national, [2, 7, 9, 1, 4, 6, 3, 5, 8, 2, 7, 9]) % 11;
      return checkedBy((remainder === 10 ? 1 : remainder) === Number(national[12]));
    }
    if (!/^[1-9]\d{1,9}$/.test(national)) return 'format';
    const head = national.slice(0, -1).padStart(9, '0');
    const check = ((weightedSum(head, [7, 5, 3, 2, 1, 7, 5, 3, 2]) * 10) % 11) % 10;
    return checkedBy(check === Number(national.at(-1)));
  },
  // Sweden: the 10-digit organisation number (Luhn) and 01…94.
  SE(national) {
    if (!/^\d{10}(0[1-9]|[1-8]\d|9[0-4])$/.test(national)) return 'format';
    return checkedBy(luhnValid(national.slice(0, 10)));
  },
  // Slovenia: 8 digits, not starting with 0; weights 8…2, 11 − remainder (10 gives 0, 11 is never issued).
  SI(national) {
    if (!/^[1-9]\d{7}$/.test(national)) return 'format';
    const check = 11 - (weightedSum(national, [8, 7, 6, 5, 4, 3, 2]) % 11);
    if (check === 11) return 'checksum';
    return checkedBy((check === 10 ? 0 : check) === Number(national[7]));
  },
  // Slovakia: 10 digits, not starting with 0, divisible by 11.
  SK(national) {
    if (!/^[1-9]\d{9}$/.test(national)) return 'format';
    return checkedBy(Number(national) % 11 === 0);
  },
};
