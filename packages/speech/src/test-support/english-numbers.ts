const ones = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const tens = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const scales: [number, string][] = [
  [1e12, 'trillion'],
  [1e9, 'billion'],
  [1e6, 'million'],
  [1e3, 'thousand'],
];
const irregularOrdinals: Record<string, string> = {
  one: 'first',
  two: 'second',
  three: 'third',
  five: 'fifth',
  eight: 'eighth',
  nine: 'ninth',
  twelve: 'twelfth',
};

/** 0 ≤ n < 1000 in words, American style without "and": 123 → "one hundred twenty three". */
function belowThousand(n: number): string[] {
  const words: string[] = [];
  if (n >= 100) {
    words.push(ones[Math.floor(n / 100)] ?? '', 'hundred');
    n %= 100;
    if (n === 0) return words;
  }
  if (n < 20) words.push(ones[n] ?? '');
  else {
    words.push(tens[Math.floor(n / 10)] ?? '');
    if (n % 10 !== 0) words.push(ones[n % 10] ?? '');
  }
  return words;
}

/** A non-negative integer in words: 2002 → "two thousand two", 1000000 → "one million". */
export function cardinalWords(n: number): string[] {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`not a non-negative integer: ${n}`);
  if (n < 1000) return belowThousand(n);
  const words: string[] = [];
  let rest = n;
  for (const [value, name] of scales) {
    if (rest >= value) {
      words.push(...cardinalWords(Math.floor(rest / value)), name);
      rest %= value;
    }
  }
  if (rest > 0) words.push(...belowThousand(rest));
  return words;
}

/**
 * How a four-digit number from 1100 to 1999 is said when it is a year, which in running speech it
 * nearly always is: 1990 → "nineteen ninety", 1905 → "nineteen oh five". Round hundreds (1900)
 * stay cardinal ("one thousand nine hundred" would be wrong too, but rarer than the year).
 */
function yearWords(n: number): string[] | undefined {
  if (n < 1100 || n > 1999 || n % 100 === 0) return undefined;
  const low = n % 100;
  return [
    ...belowThousand(Math.floor(n / 100)),
    ...(low < 10 ? ['oh', ...belowThousand(low)] : belowThousand(low)),
  ];
}

/** 21 → "twenty first", 100 → "one hundredth". */
export function ordinalWords(n: number): string[] {
  const words = cardinalWords(n);
  const last = words.pop() ?? '';
  const ordinal = irregularOrdinals[last] ?? (last.endsWith('y') ? `${last.slice(0, -1)}ieth` : `${last}th`);
  return [...words, ordinal];
}

/**
 * Digits in English text spelled out as they are spoken: "1" → "one", "2002" → "two thousand two",
 * "1,000" → "one thousand", "21st" → "twenty first", "3.5" → "three point five", "1990" →
 * "nineteen ninety", "%" → "percent". Numbers too large to say are left as digits.
 */
export function spellOutEnglishNumbers(text: string): string {
  return text
    .replace(/(\d)\s*%/g, '$1 percent')
    .replace(/\d{1,3}(?:,\d{3})+(?!\d)|\d+(?:\.\d+)?(?:st|nd|rd|th)?/g, (match) => {
      const ordinal = /(st|nd|rd|th)$/.exec(match);
      const [whole = '', fraction] = match
        .replace(/,/g, '')
        .replace(/(st|nd|rd|th)$/, '')
        .split('.');
      const value = Number(whole);
      if (!Number.isSafeInteger(value)) return match;
      let words: string[];
      if (ordinal) words = ordinalWords(value);
      else if (fraction === undefined && whole.length === 4) words = yearWords(value) ?? cardinalWords(value);
      else words = cardinalWords(value);
      if (fraction !== undefined)
        words.push('point', ...[...fraction].map((digit) => ones[Number(digit)] ?? digit));
      return ` ${words.join(' ')} `;
    });
}
