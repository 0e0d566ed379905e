/** The e-mails of self-service accounts: plain text plus a simple HTML twin. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function duration(minutes: number): string {
  if (minutes % 60 !== 0) return minutes === 1 ? '1 minute' : `${minutes} minutes`;
  const hours = minutes / 60;
  return hours === 1 ? '1 hour' : `${hours} hours`;
}

function render(options: {
  productName: string;
  subject: string;
  intro: string;
  action: string;
  link: string;
  /** How long the link works; absent for links that do not expire. */
  validForMinutes?: number;
  ignore: string;
}): MailContent {
  const validity =
    options.validForMinutes === undefined
      ? ''
      : `The link is valid for ${duration(options.validForMinutes)}.`;
  const text = [
    'Hello,',
    '',
    options.intro,
    '',
    `${options.action}:`,
    options.link,
    '',
    ...(validity ? [validity] : []),
    options.ignore,
    '',
    `The ${options.productName} team`,
    '',
  ].join('\n');
  const link = escapeHtml(options.link);
  const html = `<!doctype html>
<html>
  <body style="font-family: sans-serif; line-height: 1.5; color: #222">
    <p>Hello,</p>
    <p>${escapeHtml(options.intro)}</p>
    <p><a href="${link}" style="display: inline-block; padding: 10px 18px; background: #1c7ed6; color: #fff; text-decoration: none; border-radius: 4px">${escapeHtml(options.action)}</a></p>
    <p>If the button does not work, copy this address into your browser:<br><a href="${link}">${link}</a></p>
    <p>${escapeHtml(`${validity} ${options.ignore}`.trim())}</p>
    <p>The ${escapeHtml(options.productName)} team</p>
  </body>
</html>
`;
  return { subject: options.subject, text, html };
}

export function verificationMail(productName: string, link: string, validForHours: number): MailContent {
  return render({
    productName,
    subject: `Verify your e-mail address for ${productName}`,
    intro: `Thank you for signing up for ${productName}. Please confirm that this is your e-mail address.`,
    action: 'Verify my e-mail address',
    link,
    validForMinutes: validForHours * 60,
    ignore: 'If you did not sign up, you can ignore this message.',
  });
}

export function recoveryMail(productName: string, link: string, validForMinutes: number): MailContent {
  return render({
    productName,
    subject: `Reset your ${productName} password`,
    intro: `Someone, hopefully you, asked to reset the password of your ${productName} account.`,
    action: 'Choose a new password',
    link,
    validForMinutes,
    ignore: 'If you did not ask for it, you can ignore this message: your password stays as it is.',
  });
}

export function emailChangeMail(productName: string, link: string, validForHours: number): MailContent {
  return render({
    productName,
    subject: `Confirm your new e-mail address for ${productName}`,
    intro: `You asked to use this address for your ${productName} account. Please confirm it.`,
    action: 'Confirm my new e-mail address',
    link,
    validForMinutes: validForHours * 60,
    ignore: 'If you did not ask for it, you can ignore this message: nothing changes.',
  });
}

/** Sent to the previous address once the change is done, so a hijacked account does not go unnoticed. */
export function emailChangedNoticeMail(
  productName: string,
  newEmail: string,
  contactUrl: string,
): MailContent {
  return render({
    productName,
    subject: `Your ${productName} e-mail address was changed`,
    intro: `The e-mail address of your ${productName} account is now ${newEmail}. Messages about your account will go there.`,
    action: 'Contact us',
    link: contactUrl,
    ignore: 'If you made this change, there is nothing to do. If you did not, contact us at once.',
  });
}
