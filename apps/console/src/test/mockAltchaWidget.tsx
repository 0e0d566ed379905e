import type { AltchaWidgetProps } from '../captcha/AltchaWidget';

/** Stands in for the ALTCHA widget in jsdom: a button that "solves" the captcha. */
export function MockAltchaWidget({ onChange }: AltchaWidgetProps) {
  return (
    <button type="button" onClick={() => onChange('solved-captcha')}>
      Solve captcha
    </button>
  );
}
