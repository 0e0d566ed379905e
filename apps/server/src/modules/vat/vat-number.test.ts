import { describe, expect, it } from 'vitest';
import { euVatRates, type MemberState } from './eu-vat-rates.js';
import { checkVatNumber, compactVatNumber, vatPrefixOf } from './vat-number.js';

/**
 * Real VAT numbers, as their holders publish them (invoices, web sites, registers) and as public
 * test suites of VAT validators collect them, written the ways people write them. Every variant
 * of a member state's numbers is represented.
 */
const valid: Record<MemberState, string[]> = {
  AT: ['ATU13585627', 'ATU 142 43 102', 'ATU46080404', 'ATU61195628', 'ATU 54300000'],
  BE: ['BE0428759497', 'BE 0202.239.951', 'BE 0897290877', 'BE 0795 013 186', 'BE413562567', 'BE697449992'],
  BG: [
    'BG175074752',
    'BG 103873594',
    'BG130544585',
    'BG 131202360',
    'BG7111042925',
    'BG7523169263',
    'BG8032056031',
  ],
  CY: ['CY-10259033P', 'CY 10246672X', 'CY00632993 F', 'CY 10285193Z'],
  CZ: [
    'CZ 25123891',
    'CZ00023205',
    'CZ 640903926',
    'CZ 654123789',
    'CZ 682127228',
    'CZ6306150004',
    'CZ 736028/5163',
    'CZ 8058012314',
  ],
  DE: ['DE136308783', 'DE 811 363 057', 'DE119263782', 'DE 221.304.969', 'DE - 113866163'],
  DK: ['DK 13 20 24 35', 'DK10150817', 'DK-27630308', 'DK 2566 2202'],
  EE: ['EE101256753', 'EE 100 931 558', 'EE 100594102', 'EE 101288941'],
  ES: [
    'ESA78109592',
    'ES B64717838',
    'ES Q-2818015-F',
    'ES R9600075G',
    'ES 54362315K',
    'ES X-5253868-R',
    'ES Y5277343F',
    'ES Z5277343K',
    'ES-x-2482300w',
  ],
  FI: ['FI 0982651-1', 'FI18261444', 'FI 20774740', 'FI 02459042'],
  FR: [
    'Fr 40 303 265 045',
    'FR83404833048',
    'FR 01712030113',
    'FR K 7399859412',
    'FR4Z123456782',
    'FR16000063601',
    'FR96000110899',
  ],
  GR: ['EL094501040', 'EL 94051189', 'El 800 179 925', 'EL: 094279805', 'EL 998386804'],
  HR: ['HR33392005961', 'HR02574432339', 'HR97405527203', 'HR14553560010'],
  HU: ['HU10672101', 'HU-12892312', 'HU 64241281', 'HU 23157653'],
  IE: ['IE 6433435F', 'IE 8223200u', 'IE6599001W', 'IE6433435IH', 'IE6433435OA', 'IE8D79739I', 'IE9Y71814N'],
  IT: ['IT00743110157', 'IT 00118439991', 'IT-09159800011', 'IT 12920760159', 'IT: 02331250163'],
  LT: ['LT119511515', 'LT 100001919017', 'LT100004801610', 'LT290068995116'],
  LU: ['LU 10059929', 'LU: 2294 4200', 'LU 22 22 12 68', 'LU.248.70.640'],
  LV: ['LV 4000 3521 600', 'LV 90000528023', 'LV-42103048183', 'LV 50003087101'],
  MT: ['MT 1039-6417', 'MT 20630321', 'MT 17025737', 'MT 1465 8213'],
  NL: [
    'NL 806753742B01',
    'NL-8197.38.116.B.01',
    'NL4495445B01',
    'NL00449544B01',
    'NL001162938B28',
    'NL123456789B13',
    'NL004909665B07',
  ],
  PL: ['PL 5261025421', 'PL 584-030-44-72', 'PL 7010098470', 'PL-951-157-77-68'],
  PT: ['PT 500 019 720', 'PT503038083', 'PT-505 856 468', 'PT 500135.495'],
  RO: ['RO 185 472 90', 'RO 1822964', 'RO 573768', 'RO 21996566', 'RO 241 30 20', 'RO 1630615123457'],
  SE: ['SE556043606401', 'SE 202 100-5000 01', 'SE-556666-4438-01', 'SE 720 522 241 201'],
  SI: ['SI 26808498', 'SI-89036999', 'SI 3609 7152', 'SI 92351069'],
  SK: ['SK2022193459', 'SK 1078449064', 'SK 202 274 96 19', 'SK 2020 237 945'],
};

/** The same kind of numbers with one character changed: the check digits no longer match. */
const mangled: Record<MemberState, string[]> = {
  AT: ['ATU 143 43 102', 'ATU 15169209', 'ATU46080904', 'ATU61191628'],
  BE: ['BE 0406.139.583', 'BE 0793 013 186', 'BE 456.973.432', 'BE697449982'],
  BG: ['BG 131 172 009', 'BG 147147471', 'BG 200940556'],
  CY: ['CY 10246672F', 'CY-10009489 A', 'CY-10257074Y', 'CY00632893 F'],
  CZ: ['CZ 25557481', 'CZ 48207726', 'CZ 640913926', 'CZ 8058018314'],
  DE: ['DE 125014855', 'DE 246 495 415', 'DE 813 91 38 75', 'DE - 266297673'],
  DK: ['DK 11 96 56 58', 'DK 2565 2202', 'DK-27996592', 'DK10159817'],
  EE: ['EE 100 941 558', 'EE 100525487', 'EE 101586639', 'EE101256754'],
  ES: ['ES 54362415K', 'ES-x-2322300w', 'Es-a48951310', 'ES B64717839'],
  FI: ['FI18261445', 'FI20774741'],
  FR: ['FR 04409414264', 'FR 21 326 565 603', 'FR K 7399859312', 'FR L 7399859412', 'FR83404833049'],
  GR: ['EL 094013834', 'EL 094068733', 'EL094501140', 'EL: 094269805'],
  HR: ['HR33392005962', 'HR02574432330', 'HR93634429488'],
  HU: ['HU10672102', 'HU64241282'],
  IE: ['IE 4731823H', 'IE 632 3421 C', 'IE 5339273F', 'IE8D79729I', 'IE6433435IA'],
  IT: ['IT00743110158', 'IT12920760150'],
  LT: ['LT119511516', 'LT100001919018'],
  LU: ['LU10059920', 'LU22221269'],
  LV: ['LV 40003189715', 'LV 90000528022', 'LV-42103048181'],
  MT: ['MT20630322', 'MT17025738'],
  NL: ['NL806753743B01', 'NL123456780B13', 'NL010000445B01', 'NL123456789B14'],
  PL: ['PL5261025422', 'PL7010098471'],
  PT: ['PT503038084', 'PT500019721'],
  RO: ['RO18547291', 'RO1630615123458'],
  SE: ['SE556043606501'],
  SI: ['SI26808499', 'SI89036990'],
  SK: ['SK 1078449164', 'SK 2030 237 945', 'SK 2020457679'],
};

describe('checkVatNumber', () => {
  const memberStates = Object.keys(euVatRates.rates) as MemberState[];

  it('has real numbers and mangled ones for every member state', () => {
    expect(Object.keys(valid).sort()).toEqual([...memberStates].sort());
    expect(Object.keys(mangled).sort()).toEqual([...memberStates].sort());
  });

  describe.each(memberStates)('%s', (memberState) => {
    it.each(valid[memberState])('accepts %s', (number) => {
      const result = checkVatNumber(number, memberState);
      expect(result).toMatchObject({ valid: true, prefix: vatPrefixOf(memberState) });
      if (result.valid) expect(result.normalized).toBe(`${result.prefix}${result.national}`);
    });

    it.each(mangled[memberState])('rejects %s on its check digits', (number) => {
      expect(checkVatNumber(number, memberState)).toMatchObject({ valid: false, problem: 'checksum' });
    });

    it('accepts its numbers without their prefix', () => {
      for (const number of valid[memberState]) {
        const withoutPrefix = compactVatNumber(number).slice(2);
        expect(checkVatNumber(withoutPrefix, memberState).valid, withoutPrefix).toBe(true);
      }
    });
  });

  it('normalises to the prefix and the national part in full', () => {
    expect(checkVatNumber('de 136.308.783', 'DE')).toEqual({
      valid: true,
      prefix: 'DE',
      national: '136308783',
      normalized: 'DE136308783',
    });
    // Old numbers written without their leading zeros.
    expect(checkVatNumber('BE413562567', 'BE')).toMatchObject({ normalized: 'BE0413562567' });
    expect(checkVatNumber('EL 94051189', 'GR')).toMatchObject({ normalized: 'EL094051189' });
    expect(checkVatNumber('NL4495445B01', 'NL')).toMatchObject({ normalized: 'NL004495445B01' });
    expect(checkVatNumber('ie 8223200u', 'IE')).toMatchObject({ normalized: 'IE8223200U' });
  });

  it('uses EL for Greece, and understands GR as people type it', () => {
    expect(vatPrefixOf('GR')).toBe('EL');
    expect(checkVatNumber('GR094501040', 'GR')).toMatchObject({ valid: true, normalized: 'EL094501040' });
    expect(checkVatNumber('094501040', 'GR')).toMatchObject({ valid: true, prefix: 'EL' });
  });

  it('says when a number belongs to another member state', () => {
    expect(checkVatNumber('FR40303265045', 'DE')).toEqual({
      valid: false,
      problem: 'other_country',
      normalized: 'FR40303265045',
    });
    expect(checkVatNumber('EL094501040', 'CY')).toMatchObject({ valid: false, problem: 'other_country' });
  });

  it('tells a malformed number from one with wrong check digits', () => {
    for (const [number, memberState] of [
      ['DE 12345678', 'DE'],
      ['DE 012345678', 'DE'],
      ['AT 12345678', 'AT'],
      ['NL 123456789001', 'NL'],
      ['NL009122746B00', 'NL'],
      ['FR IO334175221', 'FR'],
      ['ATU 1515B209', 'AT'],
      ['IE 4550C59S', 'IE'],
      ['SE 55643359201', 'SE'],
      ['', 'FR'],
      ['XX', 'IT'],
    ] as const) {
      expect(checkVatNumber(number, memberState), number).toMatchObject({ valid: false, problem: 'format' });
    }
  });

  it('tries a French number whose key looks like the prefix both ways', () => {
    // FR + 11 characters is a prefixed number; an 11-character input starting with FR is a
    // number whose letter key happens to be "FR"; both must be judged on their own merits.
    expect(checkVatNumber('FR40303265045', 'FR')).toMatchObject({ valid: true, national: '40303265045' });
    // Key "FR" and SIREN 303265060 (Luhn-valid, and 303265060 mod 11 = 10 as key FR requires).
    expect(checkVatNumber('FR303265060', 'FR')).toMatchObject({
      valid: true,
      national: 'FR303265060',
      normalized: 'FRFR303265060',
    });
    expect(checkVatNumber('FR303265045', 'FR')).toMatchObject({ valid: false, problem: 'format' });
  });
});
