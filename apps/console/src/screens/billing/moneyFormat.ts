import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../format/dateTime';
import { formatCents } from '../../format/money';
import { currentLanguage } from '../../i18n/createI18n';

export interface MoneyFormat {
  /** "$24.20" in English, "24,20 $US" in French. */
  cents: (cents: number) => string;
  /** A VAT rate in percent: "21%", "25.5%"; "21 %" in French. */
  percent: (rate: number) => string;
  /** A date-time of the API in the spec's format (YYYY-MM-DD HH:mm:ss), in the browser's time zone. */
  dateTime: (iso: string) => string;
}

/** The console's formats of amounts (US dollars, spec §9) and rates, bound to the interface language. */
export function useMoneyFormat(): MoneyFormat {
  const { i18n } = useTranslation();
  const language = currentLanguage(i18n);
  return useMemo(() => {
    const percent = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 2 });
    return {
      cents: (cents) => formatCents(cents, language),
      percent: (rate) => percent.format(rate / 100),
      dateTime: formatDateTime,
    };
  }, [language]);
}
