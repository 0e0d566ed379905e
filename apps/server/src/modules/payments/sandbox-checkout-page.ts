import { formatUsd } from '../../lib/money.js';
import {
  approvedTestCards,
  declinedTestCards,
  type CardField,
  type CardProblem,
  type DeclineReason,
} from '../../platform/payments/sandbox-cards.js';
import { sandboxCheckoutPath, type SandboxSession } from '../../platform/payments/sandbox-provider.js';

/**
 * The hosted page of the sandbox checkout, in English and French. It plays the part of a card
 * provider's checkout, so it stands apart from the console: a banner says TEST MODE on every
 * screen. Plain HTML forms, no scripts and no external resources; usable on a phone and with a
 * screen reader (labels, error messages tied to their fields, an alert for declines).
 */
export type Language = 'en' | 'fr';

interface Texts {
  testMode: string;
  testModeNote: string;
  title: string;
  payTo: (merchant: string) => string;
  email: string;
  cardNumber: string;
  expiry: string;
  expiryHint: string;
  cvc: string;
  cvcHint: string;
  name: string;
  pay: (amount: string) => string;
  cancel: string;
  problems: Record<CardProblem, string>;
  declines: Record<DeclineReason, string>;
  undelivered: (merchant: string) => string;
  testCards: string;
  approved: string;
  declined: (reason: string) => string;
  anyFuture: string;
  invalidTitle: string;
  invalid: (merchant: string) => string;
  expiredTitle: string;
  expired: (merchant: string) => string;
  paidTitle: string;
  paid: string;
  closedTitle: string;
  closed: string;
  continue: (merchant: string) => string;
}

const texts: Record<Language, Texts> = {
  en: {
    testMode: 'TEST MODE',
    testModeNote:
      'This is a sandbox checkout: no real card is charged and real cards are refused. Pay with a test card such as 4242 4242 4242 4242, any future expiry date and any CVC.',
    title: 'Checkout',
    payTo: (merchant) => `Pay ${merchant}`,
    email: 'Email',
    cardNumber: 'Card number',
    expiry: 'Expiry date',
    expiryHint: 'MM/YY',
    cvc: 'Security code',
    cvcHint: 'CVC, 3 or 4 digits',
    name: 'Name on card',
    pay: (amount) => `Pay ${amount}`,
    cancel: 'Cancel and go back',
    problems: {
      number_invalid: 'Enter a valid card number.',
      expiry_invalid: 'Enter the expiry date as MM/YY.',
      expiry_past: 'This card has expired.',
      cvc_invalid: 'Enter the security code: 3 digits (4 for American Express).',
      name_required: 'Enter the name on the card.',
    },
    declines: {
      generic_decline: 'Your card was declined. Try another card.',
      insufficient_funds: 'Your card has insufficient funds. Try another card.',
      lost_card: 'Your card was declined. Try another card.',
      stolen_card: 'Your card was declined. Try another card.',
      expired_card: 'Your card has expired. Try another card.',
      incorrect_cvc: "Your card's security code is incorrect. Check it or try another card.",
      processing_error: 'An error occurred while processing your card. Try again in a moment.',
      not_a_test_card: 'This test checkout accepts test cards only. Use one of the test cards listed below.',
    },
    undelivered: (merchant) =>
      `${merchant} could not confirm this payment, so nothing was charged. Try again in a moment.`,
    testCards: 'Test cards',
    approved: 'payment succeeds',
    declined: (reason) => `declined: ${reason}`,
    anyFuture: 'Use any future expiry date, any name, and a 3-digit CVC (4 digits for American Express).',
    invalidTitle: 'Checkout link not valid',
    invalid: (merchant) =>
      `This checkout link is not valid. Go back to ${merchant} and start the payment again.`,
    expiredTitle: 'Checkout expired',
    expired: (merchant) =>
      `This checkout session has expired and can no longer be paid. Start the payment again from ${merchant}.`,
    paidTitle: 'Payment complete',
    paid: 'This checkout session has already been paid.',
    closedTitle: 'Checkout closed',
    closed: 'This checkout session can no longer be paid.',
    continue: (merchant) => `Back to ${merchant}`,
  },
  fr: {
    testMode: 'MODE TEST',
    testModeNote:
      "Ceci est un paiement de test\u00a0: aucune vraie carte n'est débitée et les vraies cartes sont refusées. Payez avec une carte de test comme 4242 4242 4242 4242, une date d'expiration future et un CVC quelconque.",
    title: 'Paiement',
    payTo: (merchant) => `Payer ${merchant}`,
    email: 'E-mail',
    cardNumber: 'Numéro de carte',
    expiry: "Date d'expiration",
    expiryHint: 'MM/AA',
    cvc: 'Code de sécurité',
    cvcHint: 'CVC, 3 ou 4 chiffres',
    name: 'Nom sur la carte',
    pay: (amount) => `Payer ${amount}`,
    cancel: 'Annuler et revenir',
    problems: {
      number_invalid: 'Saisissez un numéro de carte valide.',
      expiry_invalid: "Saisissez la date d'expiration au format MM/AA.",
      expiry_past: 'Cette carte a expiré.',
      cvc_invalid: 'Saisissez le code de sécurité\u00a0: 3 chiffres (4 pour American Express).',
      name_required: 'Saisissez le nom figurant sur la carte.',
    },
    declines: {
      generic_decline: 'Votre carte a été refusée. Essayez une autre carte.',
      insufficient_funds: 'Le solde de votre carte est insuffisant. Essayez une autre carte.',
      lost_card: 'Votre carte a été refusée. Essayez une autre carte.',
      stolen_card: 'Votre carte a été refusée. Essayez une autre carte.',
      expired_card: 'Votre carte a expiré. Essayez une autre carte.',
      incorrect_cvc:
        'Le code de sécurité de votre carte est incorrect. Vérifiez-le ou essayez une autre carte.',
      processing_error:
        'Une erreur est survenue lors du traitement de votre carte. Réessayez dans un instant.',
      not_a_test_card:
        "Ce paiement de test n'accepte que les cartes de test. Utilisez l'une des cartes de test ci-dessous.",
    },
    undelivered: (merchant) =>
      `${merchant} n'a pas pu confirmer ce paiement\u00a0: rien n'a été débité. Réessayez dans un instant.`,
    testCards: 'Cartes de test',
    approved: 'paiement accepté',
    declined: (reason) => `refusée\u00a0: ${reason}`,
    anyFuture:
      "Utilisez une date d'expiration future, un nom quelconque et un CVC de 3 chiffres (4 pour American Express).",
    invalidTitle: 'Lien de paiement non valide',
    invalid: (merchant) =>
      `Ce lien de paiement n'est pas valide. Revenez sur ${merchant} et recommencez le paiement.`,
    expiredTitle: 'Paiement expiré',
    expired: (merchant) =>
      `Cette session de paiement a expiré et ne peut plus être réglée. Recommencez le paiement depuis ${merchant}.`,
    paidTitle: 'Paiement effectué',
    paid: 'Cette session de paiement a déjà été réglée.',
    closedTitle: 'Paiement clos',
    closed: 'Cette session de paiement ne peut plus être réglée.',
    continue: (merchant) => `Revenir sur ${merchant}`,
  },
};

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

const style = `*{box-sizing:border-box}body{font-family:system-ui,sans-serif;background:#f8f9fa;color:#212529;margin:0;padding:0 0 48px}
.test{background:#fff3bf;border-bottom:2px solid #f08c00;color:#5c3c00;padding:10px 16px;text-align:center;margin:0 0 32px}
.test strong{display:inline-block;background:#e8590c;color:#fff;border-radius:4px;padding:2px 8px;margin-right:8px;letter-spacing:.08em}
main{max-width:440px;margin:0 16px;background:#fff;border:1px solid #dee2e6;border-radius:8px;padding:24px 28px}
@media(min-width:480px){main{margin:0 auto}}
h1{font-size:1.3rem;margin:0 0 4px}.amount{font-size:2rem;font-weight:700;margin:4px 0}.muted{color:#495057}
p{line-height:1.5}dl{margin:16px 0}dt{font-weight:600}dd{margin:0 0 8px}
label{display:block;font-weight:600;margin:16px 0 6px}.hint{display:block;font-weight:400;color:#495057;font-size:.9rem}
input{width:100%;font-size:1.1rem;padding:10px;border:1px solid #adb5bd;border-radius:4px}
input:focus,button:focus,a:focus{outline:3px solid #74c0fc;outline-offset:1px}
input[aria-invalid=true]{border-color:#c92a2a}.row{display:flex;gap:12px}.row>div{flex:1}
.error{color:#c92a2a;margin:6px 0 0}.alert{background:#fff5f5;border:1px solid #ffa8a8;color:#a51111;border-radius:4px;padding:10px 12px}
button,.button{display:block;width:100%;font-size:1.05rem;padding:12px 16px;border-radius:4px;border:0;cursor:pointer;margin-top:20px;text-align:center;text-decoration:none}
button{background:#1c7ed6;color:#fff}.button{background:none;color:#1864ab;margin-top:8px}
details{margin-top:24px}summary{cursor:pointer;font-weight:600}table{border-collapse:collapse;width:100%;font-size:.9rem}
td{padding:4px 6px;border-bottom:1px solid #e9ecef}td:first-child{font-family:ui-monospace,monospace;white-space:nowrap}`;

function page(lang: Language, title: string, body: string): string {
  const t = texts[lang];
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${escapeHtml(`${t.testMode} · ${title}`)}</title><style>${style}</style></head><body>
<p class="test" role="note"><strong>${t.testMode}</strong>${escapeHtml(t.testModeNote)}</p>
<main>${body}</main></body></html>`;
}

const groupDigits = (digits: string) => digits.replace(/(\d{4})(?=\d)/g, '$1 ');

function testCardsTable(t: Texts): string {
  const rows = [
    ...approvedTestCards.map((card) => [card.number, `${card.brand}: ${t.approved}`]),
    ...declinedTestCards.map((card) => [card.number, t.declined(card.reason.replace(/_/g, ' '))]),
  ]
    .map(
      ([number, outcome]) =>
        `<tr><td>${groupDigits(number ?? '')}</td><td>${escapeHtml(outcome ?? '')}</td></tr>`,
    )
    .join('');
  return `<details><summary>${t.testCards}</summary><p class="muted">${escapeHtml(t.anyFuture)}</p>
<table>${rows}</table></details>`;
}

export interface CheckoutFormView {
  lang: Language;
  merchant: string;
  token: string;
  session: SandboxSession;
  /** What the customer typed, shown again after a problem (never the security code). */
  values?: { number: string; expiry: string; name: string };
  problems?: Partial<Record<CardField, CardProblem>>;
  decline?: DeclineReason;
  undelivered?: boolean;
}

/** The card form of an open session, possibly with the problems of the last attempt. */
export function checkoutFormPage(view: CheckoutFormView): string {
  const t = texts[view.lang];
  const amount = formatUsd(view.session.amountCents, view.lang);
  const problems = view.problems ?? {};
  const alert = view.decline
    ? t.declines[view.decline]
    : view.undelivered
      ? t.undelivered(view.merchant)
      : undefined;
  const field = (
    name: CardField,
    label: string,
    attributes: string,
    options: { hint?: string; value?: string } = {},
  ) => {
    const problem = problems[name];
    const describedBy = [options.hint ? `${name}-hint` : '', problem ? `${name}-error` : '']
      .filter(Boolean)
      .join(' ');
    return `<div><label for="${name}">${label}${
      options.hint ? ` <span class="hint" id="${name}-hint">${escapeHtml(options.hint)}</span>` : ''
    }</label>
<input id="${name}" name="${name}" ${attributes} value="${escapeHtml(options.value ?? '')}"${
      describedBy ? ` aria-describedby="${describedBy}"` : ''
    }${problem ? ' aria-invalid="true"' : ''} required>${
      problem ? `<p class="error" id="${name}-error">${escapeHtml(t.problems[problem])}</p>` : ''
    }</div>`;
  };
  return page(
    view.lang,
    t.payTo(view.merchant),
    `<h1>${escapeHtml(t.payTo(view.merchant))}</h1>
<p class="amount">${escapeHtml(amount)}</p><p class="muted">${escapeHtml(view.session.description)}</p>
<dl><dt>${t.email}</dt><dd>${escapeHtml(view.session.customerEmail)}</dd></dl>
${alert ? `<p class="alert" role="alert">${escapeHtml(alert)}</p>` : ''}
<form method="post" action="${sandboxCheckoutPath}" novalidate>
<input type="hidden" name="session" value="${escapeHtml(view.token)}"><input type="hidden" name="lang" value="${view.lang}">
${field('number', t.cardNumber, 'type="text" inputmode="numeric" autocomplete="cc-number" maxlength="23" spellcheck="false"', { value: view.values?.number ?? '' })}
<div class="row">${field('expiry', t.expiry, 'type="text" inputmode="numeric" autocomplete="cc-exp" maxlength="9"', { hint: t.expiryHint, value: view.values?.expiry ?? '' })}
${field('cvc', t.cvc, 'type="text" inputmode="numeric" autocomplete="cc-csc" maxlength="4"', { hint: t.cvcHint })}</div>
${field('name', t.name, 'type="text" autocomplete="cc-name" maxlength="100"', { value: view.values?.name ?? '' })}
<button type="submit">${escapeHtml(t.pay(amount))}</button>
</form>
<a class="button" href="${escapeHtml(view.session.cancelUrl)}">${t.cancel}</a>
${testCardsTable(t)}`,
  );
}

export type CheckoutNotice = 'invalid' | 'expired' | 'paid' | 'closed';

/** A page without a form: the link is broken, the session expired, was paid or closed. */
export function checkoutNoticePage(
  lang: Language,
  notice: CheckoutNotice,
  merchant: string,
  link: string,
): string {
  const t = texts[lang];
  const notices: Record<CheckoutNotice, { title: string; message: string }> = {
    invalid: { title: t.invalidTitle, message: t.invalid(merchant) },
    expired: { title: t.expiredTitle, message: t.expired(merchant) },
    paid: { title: t.paidTitle, message: t.paid },
    closed: { title: t.closedTitle, message: t.closed },
  };
  const { title, message } = notices[notice];
  return page(
    lang,
    title,
    `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>
<a class="button" href="${escapeHtml(link)}">${escapeHtml(t.continue(merchant))}</a>`,
  );
}

/** ?lang= first, then the language the session was opened in, then the browser's preference. */
export function pageLanguage(
  query: string | undefined,
  session: SandboxSession | undefined,
  acceptLanguage: string | undefined,
): Language {
  if (query === 'en' || query === 'fr') return query;
  if (session) return session.locale;
  return preferredLanguage(acceptLanguage);
}

/** The first of English or French in an Accept-Language header, by quality; English otherwise. */
export function preferredLanguage(header: string | undefined): Language {
  const ranked = (header ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...parameters] = part.trim().toLowerCase().split(';');
      const q = parameters.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { language: tag.split('-')[0], quality: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.quality > 0 && (entry.language === 'en' || entry.language === 'fr'))
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  return ranked[0]?.language === 'fr' ? 'fr' : 'en';
}
