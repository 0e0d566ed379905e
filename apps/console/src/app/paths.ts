/** Paths other modules link to; the route table in routes.tsx is the authority on what they show. */
export const homePath = '/home';
/** Spec §2: live transcription. */
export const liveTranscribePath = '/live-transcribe';
export const generalErrorPath = '/error';
/** Spec §2: API authentication and keys. */
export const apiKeysPath = '/speech-to-text-api';
/** Spec §2: on-premise licences. */
export const onPremisePath = '/on-premise';
export const billingPath = '/billing';
export const billingHistoryPath = '/billing/history';
/** Spec §2: uploaded files list with upload modal. */
export const submittedFilesPath = '/submitted-files';
/** One file's transcript page: the recording, the transcript as speaker turns, renames, downloads. */
export const transcriptPath = (fileId: string) => `${submittedFilesPath}/${encodeURIComponent(fileId)}`;
/** Spec §1, §7: CRM integrations (contacts, notes, tasks); the OAuth callback returns here. */
export const integrationsPath = '/integrations';
/** Spec §2: configuration / settings. */
export const configurationPath = '/configuration';
/**
 * Spec §2: /payment only redirects to /billing; the payment provider sends the customer back to
 * /payment/success/{sessionId} after paying.
 */
export const paymentPath = '/payment';
/** Served by the API server next to the OpenAPI document, outside the single-page app. */
export const apiReferencePath = '/api/docs';
