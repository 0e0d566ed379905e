import { z } from 'zod';
import { identifierSchema } from './text-rules.js';

/**
 * Integrations with CRMs (spec §1 "manage integrations with third-party providers (contacts,
 * notes, tasks)", §3 Integration, §7 /providers, /integrations, /contacts): connections, the
 * contact browser, and transcripts sent to a contact's record as a note or a task.
 */

const timestamp = z.iso.datetime({ offset: true });
export const resourceIdParamsSchema = z.object({ id: identifierSchema });

export const crmProviderIds = ['hubspot', 'pipedrive'] as const;
export const crmProviderIdSchema = z.enum(crmProviderIds).meta({ id: 'CrmProviderId' });
export type CrmProviderId = z.infer<typeof crmProviderIdSchema>;

/** `oauth`: the provider's authorization page (when the operator configured an app); `token`: a pasted personal token. */
export const crmConnectMethodSchema = z.enum(['oauth', 'token']).meta({ id: 'CrmConnectMethod' });
export type CrmConnectMethod = z.infer<typeof crmConnectMethodSchema>;

export const crmCapabilitySchema = z.enum(['contacts', 'contact_search', 'notes', 'tasks']);
export type CrmCapability = z.infer<typeof crmCapabilitySchema>;

export const crmProviderSchema = z
  .object({
    id: crmProviderIdSchema,
    name: z.string(),
    /** The ways this server can connect the provider: `token` always, `oauth` when configured. */
    connectMethods: z.array(crmConnectMethodSchema),
    capabilities: z.array(crmCapabilitySchema),
    /** The longest note or task body the provider accepts, in characters; longer transcripts are cut. */
    maxBodyChars: z.int().positive(),
  })
  .meta({ id: 'CrmProvider' });
export type CrmProvider = z.infer<typeof crmProviderSchema>;

export const crmProviderListSchema = z
  .object({ providers: z.array(crmProviderSchema) })
  .meta({ id: 'CrmProviderList' });
export type CrmProviderList = z.infer<typeof crmProviderListSchema>;

/** `needs_reconnect`: the provider refused the token (revoked, expired refresh); connect again. */
export const integrationStatusSchema = z
  .enum(['connected', 'needs_reconnect'])
  .meta({ id: 'IntegrationStatus' });
export type IntegrationStatus = z.infer<typeof integrationStatusSchema>;

/** A connection to one CRM account. Tokens never leave the server. */
export const integrationSchema = z
  .object({
    id: z.string(),
    provider: crmProviderIdSchema,
    /** The CRM account as its owner knows it (HubSpot portal domain, Pipedrive company). */
    accountName: z.string(),
    method: crmConnectMethodSchema,
    status: integrationStatusSchema,
    createdAt: timestamp,
  })
  .meta({ id: 'Integration' });
export type Integration = z.infer<typeof integrationSchema>;

export const integrationListSchema = z
  .object({ integrations: z.array(integrationSchema) })
  .meta({ id: 'IntegrationList' });
export type IntegrationList = z.infer<typeof integrationListSchema>;

/**
 * `POST /integrations`: with `token`, the personal token is checked against the provider and stored;
 * without it, the answer is the provider's authorization page (OAuth must be configured). Connecting
 * the same CRM account again replaces its tokens: that is how a connection is reconnected.
 */
export const connectIntegrationRequestSchema = z
  .object({
    provider: crmProviderIdSchema,
    token: z
      .string()
      .trim()
      .min(8, 'Paste the whole token')
      .max(4096, 'This is not a token')
      // Sent to the CRM in a header: visible ASCII only (a HubSpot or Pipedrive token is).
      .regex(/^[!-~]+$/, 'A token has no spaces')
      .optional(),
  })
  .meta({ id: 'ConnectIntegrationRequest' });
export type ConnectIntegrationRequest = z.infer<typeof connectIntegrationRequestSchema>;

export const connectIntegrationResponseSchema = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('connected'), integration: integrationSchema }),
    /** Send the browser there; the provider returns it to the callback, which returns it to the console. */
    z.object({ kind: z.literal('authorize'), authorizeUrl: z.url() }),
  ])
  .meta({ id: 'ConnectIntegrationResponse' });
export type ConnectIntegrationResponse = z.infer<typeof connectIntegrationResponseSchema>;

/** Where the OAuth callback sends the browser back to: the console's integrations screen. */
export const integrationsConsolePath = '/integrations';

/** HubSpot contacts and Pipedrive persons, in one shape. */
export const crmContactTypeSchema = z.enum(['contact', 'person']);
export type CrmContactType = z.infer<typeof crmContactTypeSchema>;

export const crmContactSchema = z
  .object({
    id: z.string(),
    type: crmContactTypeSchema,
    name: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    company: z.string().nullable(),
  })
  .meta({ id: 'CrmContact' });
export type CrmContact = z.infer<typeof crmContactSchema>;

export const contactsPageSize = { default: 20, max: 100 } as const;

export const contactsQuerySchema = z.object({
  provider: crmProviderIdSchema.optional(),
  /** Which connection; by default the newest one (of `provider`, when given). */
  integrationId: identifierSchema.optional(),
  q: z.string().trim().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(contactsPageSize.max).default(contactsPageSize.default),
  /** Opaque: only ever taken from a `next_page_url`. */
  cursor: z.string().min(1).max(2048).optional(),
});
export type ContactsQuery = z.input<typeof contactsQuerySchema>;

export const contactsPageSchema = z
  .object({
    contacts: z.array(crmContactSchema),
    /** Our own URL of the next page (same connection, search and limit); null on the last page. */
    next_page_url: z.string().nullable(),
  })
  .meta({ id: 'ContactsPage' });
export type ContactsPage = z.infer<typeof contactsPageSchema>;

export const contactUrlQuerySchema = z.object({
  provider: crmProviderIdSchema,
  contactId: z.string().trim().min(1).max(64),
  type: crmContactTypeSchema.optional(),
  integrationId: identifierSchema.optional(),
});

export const contactUrlSchema = z.object({ url: z.url() }).meta({ id: 'ContactUrl' });

export const crmDeliveryKinds = ['note', 'task'] as const;
export const crmDeliveryKindSchema = z.enum(crmDeliveryKinds).meta({ id: 'CrmDeliveryKind' });
export type CrmDeliveryKind = z.infer<typeof crmDeliveryKindSchema>;

/**
 * A character that JavaScript and the JSON Schema tools (Python's `re`) both take for no space: the
 * union of both whitespace sets is excluded, so that "not blank" means the same to the document and
 * to the server.
 */
// eslint-disable-next-line no-control-regex -- \x1c-\x1f are whitespace to Python's re (above)
const notSpace = /[^\s\x1c-\x1f\x85\ufeff]/;

/** Text with something besides spaces, trimmed. */
function filledText(message: string) {
  return z.string().regex(notSpace, message).trim();
}

const crmDeliveryTarget = {
  integrationId: identifierSchema,
  contactId: z
    .string()
    .min(1)
    .max(64)
    // eslint-disable-next-line no-control-regex -- the same whitespace set as notSpace
    .regex(/^[^\s\x1c-\x1f\x85\ufeff]+$/, 'A contact id has no spaces'),
};

/**
 * `POST /transcripts/{id}/crm`; also the `crm` field of an upload. A task needs its subject and due
 * date, a note has neither: one variant per kind, so the document states the rule.
 */
export const sendToCrmRequestSchema = z
  .discriminatedUnion('as', [
    z.object({ ...crmDeliveryTarget, as: z.literal('note') }),
    z.object({
      ...crmDeliveryTarget,
      as: z.literal('task'),
      task: z.object({
        subject: filledText('Enter a subject').max(200, 'Use maximum 200 characters'),
        dueAt: timestamp,
      }),
    }),
  ])
  .meta({ id: 'SendToCrmRequest' });
export type SendToCrmRequest = z.infer<typeof sendToCrmRequestSchema>;

/**
 * `queued` (waiting, or waiting to retry), `sending`, `delivered`, `failed` (given up; `lastError`
 * says why), `waiting_reconnect` (the connection needs reconnecting; it resumes by itself then).
 */
export const crmDeliveryStatusSchema = z
  .enum(['queued', 'sending', 'delivered', 'failed', 'waiting_reconnect'])
  .meta({ id: 'CrmDeliveryStatus' });
export type CrmDeliveryStatus = z.infer<typeof crmDeliveryStatusSchema>;

export const crmDeliverySchema = z
  .object({
    id: z.string(),
    transcriptId: z.string(),
    integrationId: z.string().nullable(),
    provider: crmProviderIdSchema,
    contactId: z.string(),
    kind: crmDeliveryKindSchema,
    status: crmDeliveryStatusSchema,
    attempts: z.int().nonnegative(),
    lastErrorCode: z.string().nullable(),
    lastError: z.string().nullable(),
    /** The note or task in the provider's web app, once delivered. */
    recordUrl: z.string().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'CrmDelivery' });
export type CrmDelivery = z.infer<typeof crmDeliverySchema>;

export const crmDeliveriesQuerySchema = z.object({ transcriptId: identifierSchema });

export const crmDeliveryListSchema = z
  .object({ deliveries: z.array(crmDeliverySchema) })
  .meta({ id: 'CrmDeliveryList' });
export type CrmDeliveryList = z.infer<typeof crmDeliveryListSchema>;

/**
 * `POST /crm-deliveries`: a text that is not a stored transcript (a live session's) sent to a
 * contact's record. The text is kept with the delivery; the same text, contact and kind twice make
 * one record, like transcripts.
 */
export const sendTextToCrmRequestSchema = z
  .object({
    text: filledText('There is no text to send').max(500_000, 'The text is too long'),
    /** What the note or task calls the text; by default "Live transcription". */
    title: filledText('Enter a title').max(200).optional(),
    crm: sendToCrmRequestSchema,
  })
  .meta({ id: 'SendTextToCrmRequest' });
export type SendTextToCrmRequest = z.infer<typeof sendTextToCrmRequestSchema>;
