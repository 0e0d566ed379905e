import type { Page } from 'playwright-core';

/** Ticks the ALTCHA checkbox of the form and waits until the widget has solved its challenge. */
export async function solveCaptchaWidget(page: Page): Promise<void> {
  const widget = page.getByTestId('captcha');
  await widget.getByRole('checkbox', { name: "I'm not a robot" }).click();
  await widget.getByText('Verified', { exact: true }).waitFor({ timeout: 30_000 });
}
