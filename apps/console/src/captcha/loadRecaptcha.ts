/** The part of Google's `grecaptcha` global the console uses (reCAPTCHA v2, explicit rendering). */
export interface Grecaptcha {
  render(
    container: HTMLElement,
    parameters: {
      sitekey: string;
      callback: (token: string) => void;
      'expired-callback': () => void;
      'error-callback': () => void;
    },
  ): number;
  reset(widgetId?: number): void;
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
    verbatimRecaptchaLoaded?: () => void;
  }
}

let loading: Promise<Grecaptcha> | undefined;

/** Loads the widget's script once per page, in the interface language; resolves when it is ready. */
export function loadRecaptcha(scriptUrl: string, language: string): Promise<Grecaptcha> {
  loading ??= new Promise<Grecaptcha>((resolve, reject) => {
    window.verbatimRecaptchaLoaded = () => {
      if (window.grecaptcha) resolve(window.grecaptcha);
      else reject(new Error('reCAPTCHA loaded without grecaptcha'));
    };
    const script = document.createElement('script');
    const url = new URL(scriptUrl);
    url.searchParams.set('onload', 'verbatimRecaptchaLoaded');
    url.searchParams.set('render', 'explicit');
    url.searchParams.set('hl', language);
    script.src = url.toString();
    script.async = true;
    script.onerror = () => {
      // A later attempt (another form) may succeed once the network is back.
      loading = undefined;
      script.remove();
      reject(new Error(`could not load ${scriptUrl}`));
    };
    document.head.append(script);
  });
  return loading;
}
