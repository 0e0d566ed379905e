import type { KoaContextWithOIDC } from 'oidc-provider';

/**
 * The few pages the identity provider renders itself: the device flow's (a CLI or a TV app shows a
 * code; the user confirms it here) and sign-out. They carry their own English and French texts;
 * no scripts and no external resources, within the server's content security policy.
 */
type Texts = Record<
  | 'title'
  | 'enterCode'
  | 'wrongCode'
  | 'interrupted'
  | 'failed'
  | 'code'
  | 'continue'
  | 'confirmTitle'
  | 'confirmIntro'
  | 'confirmWarning'
  | 'cancel'
  | 'successTitle'
  | 'success'
  | 'signOutTitle'
  | 'signOutConfirm'
  | 'stay'
  | 'signedOutTitle'
  | 'signedOut',
  string
>;

const texts: { en: Texts; fr: Texts } = {
  en: {
    title: 'Sign in a device',
    enterCode: 'Enter the code displayed on your device.',
    wrongCode: 'The code you entered is incorrect. Try again.',
    interrupted: 'The sign-in request was interrupted.',
    failed: 'Something went wrong. Please try again.',
    code: 'Code',
    continue: 'Continue',
    confirmTitle: 'Confirm the device',
    confirmIntro: 'wants to sign in to your account. Check that your device shows this code:',
    confirmWarning: 'If you did not start this, or the code differs, choose Cancel.',
    cancel: 'Cancel',
    successTitle: 'Device signed in',
    success: 'You can now close this page and return to your device.',
    signOutTitle: 'Sign out?',
    signOutConfirm: 'Yes, sign me out',
    stay: 'No, stay signed in',
    signedOutTitle: 'Signed out',
    signedOut: 'You are signed out. You can close this page.',
  },
  fr: {
    title: 'Connecter un appareil',
    enterCode: 'Saisissez le code affiché sur votre appareil.',
    wrongCode: 'Le code saisi est incorrect. Réessayez.',
    interrupted: 'La demande de connexion a été interrompue.',
    failed: 'Une erreur est survenue. Veuillez réessayer.',
    code: 'Code',
    continue: 'Continuer',
    confirmTitle: "Confirmer l'appareil",
    confirmIntro: 'souhaite se connecter à votre compte. Vérifiez que votre appareil affiche ce code :',
    confirmWarning:
      "Si vous n'êtes pas à l'origine de cette demande, ou si le code diffère, choisissez Annuler.",
    cancel: 'Annuler',
    successTitle: 'Appareil connecté',
    success: 'Vous pouvez fermer cette page et revenir à votre appareil.',
    signOutTitle: 'Se déconnecter ?',
    signOutConfirm: 'Oui, me déconnecter',
    stay: 'Non, rester connecté',
    signedOutTitle: 'Déconnecté',
    signedOut: 'Vous êtes déconnecté. Vous pouvez fermer cette page.',
  },
};

function languageOf(ctx: KoaContextWithOIDC): 'en' | 'fr' {
  return ctx.acceptsLanguages('en', 'fr') === 'fr' ? 'fr' : 'en';
}

function textsFor(ctx: KoaContextWithOIDC): Texts {
  return texts[languageOf(ctx)];
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

const style = `body{font-family:system-ui,sans-serif;background:#f8f9fa;color:#212529;margin:0;padding:48px 16px}
main{max-width:380px;margin:0 auto;background:#fff;border:1px solid #dee2e6;border-radius:8px;padding:24px 28px}
h1{font-size:1.4rem;margin:0 0 12px}p{line-height:1.5}.error{color:#c92a2a}
label{display:block;font-weight:600;margin:16px 0 6px}input[type=text]{width:100%;box-sizing:border-box;font-size:1.2rem;
padding:10px;border:1px solid #ced4da;border-radius:4px;text-transform:uppercase;letter-spacing:.1em}
button{font-size:1rem;padding:10px 16px;border-radius:4px;border:0;cursor:pointer;margin-top:16px}
.primary{background:#228be6;color:#fff;width:100%}.secondary{background:none;color:#495057;width:100%}
code{display:block;font-size:1.8rem;text-align:center;letter-spacing:.15em;margin:12px 0}`;

function page(ctx: KoaContextWithOIDC, title: string, body: string): void {
  const lang = languageOf(ctx);
  ctx.type = 'html';
  ctx.body = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>${style}</style></head><body><main>${body}</main></body></html>`;
}

export function userCodeInputPage(
  ctx: KoaContextWithOIDC,
  form: string,
  _out?: unknown,
  error?: unknown,
): void {
  const t = textsFor(ctx);
  const name = (error as { name?: string; userCode?: string } | undefined)?.name;
  const message =
    error === undefined
      ? `<p>${t.enterCode}</p>`
      : `<p class="error" role="alert">${
          (error as { userCode?: string }).userCode || name === 'NoCodeError'
            ? t.wrongCode
            : name === 'AbortedError'
              ? t.interrupted
              : t.failed
        }</p>`;
  // The provider's form brings the code input: label it, translate it, and drop its inline
  // handler (inline scripts are not allowed by the content security policy).
  const accessibleForm = form
    .replace(/\sonfocus="[^"]*"/, '')
    .replace('placeholder="Enter code"', `placeholder="${t.code}" aria-label="${t.code}" required`);
  page(
    ctx,
    t.title,
    `<h1>${t.title}</h1>${message}${accessibleForm}
<button class="primary" type="submit" form="op.deviceInputForm">${t.continue}</button>`,
  );
}

export function userCodeConfirmPage(
  ctx: KoaContextWithOIDC,
  form: string,
  client: { clientName?: string; clientId: string },
  _deviceInfo: unknown,
  userCode: string,
): void {
  const t = textsFor(ctx);
  page(
    ctx,
    t.confirmTitle,
    `<h1>${t.confirmTitle}</h1>
<p><strong>${escapeHtml(client.clientName ?? client.clientId)}</strong> ${t.confirmIntro}</p>
<code>${escapeHtml(userCode)}</code><p>${t.confirmWarning}</p>${form}
<button class="primary" type="submit" form="op.deviceConfirmForm">${t.continue}</button>
<button class="secondary" type="submit" form="op.deviceConfirmForm" name="abort" value="yes">${t.cancel}</button>`,
  );
}

export function deviceSuccessPage(ctx: KoaContextWithOIDC): void {
  const t = textsFor(ctx);
  page(ctx, t.successTitle, `<h1>${t.successTitle}</h1><p>${t.success}</p>`);
}

export function logoutPage(ctx: KoaContextWithOIDC, form: string): void {
  const t = textsFor(ctx);
  page(
    ctx,
    t.signOutTitle,
    `<h1>${t.signOutTitle}</h1>${form}
<button class="primary" type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>${t.signOutConfirm}</button>
<button class="secondary" type="submit" form="op.logoutForm">${t.stay}</button>`,
  );
}

export function postLogoutPage(ctx: KoaContextWithOIDC): void {
  const t = textsFor(ctx);
  page(ctx, t.signedOutTitle, `<h1>${t.signedOutTitle}</h1><p>${t.signedOut}</p>`);
}
