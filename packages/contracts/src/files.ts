import { z } from 'zod';
import { apiErrorSchema } from './errors.js';
import { checkRawAudioOptions, rawAudioQueryFields } from './raw-audio.js';
import { crmDeliveryKinds, sendToCrmRequestSchema } from './integrations.js';
import {
  checkDiarizationOptions,
  diarizationQueryFields,
  maxDiarizationSpeakers,
  speakerIdSchema,
  transcriptSchema,
  transcriptSpeakerSchema,
} from './transcripts.js';
import { validationMessages } from './validation-messages.js';

/**
 * Submitted files (spec §2 Submitted files, §3 Submitted file / Transcript status / Upload payload,
 * §4 Upload, §5 Upload file, §7 /media/recordings, /media/{fileId}, /files/third-party,
 * /transcripts/download, §8 Upload errors, §9 limits), the public transcription jobs API and the
 * signed webhooks sent when a transcript is done or failed.
 */

/** Spec §5 and §8, word for word (the console translates them through `validationMessages`). */
export const uploadValidationMessages = {
  fileInvalid: validationMessages.fileInvalid,
  languageInvalid: validationMessages.languageInvalid,
  urlInvalid: validationMessages.urlInvalid,
} as const;

/** Spec §8: what the upload modal says when the upload is refused. */
export const uploadErrorMessages = {
  alreadyExists: 'File already exists',
  storageLimitReached: 'Storage limit reached',
  failed: 'File upload failed',
} as const;

/** Spec §9: the largest upload, 500 MB. */
export const maxUploadBytes = 524_288_000;

/** Spec §9 and §4: how the console sends the bytes. */
export const uploadChunkPolicy = {
  /** Bytes per `PUT /media/{fileId}` request. */
  chunkBytes: 8 * 1024 * 1024,
  /** Retries of a failed chunk. */
  retries: 3,
  /** Delay before the first retry; doubled each time. */
  firstRetryDelayMs: 500,
  /** Each chunk request may take this long. */
  timeoutMs: 60_000,
} as const;

/** Spec §9: the files table shows 10 files a page. */
export const filesPageSize = 10;

/**
 * Spec §5: the types an upload may have (wav variants, ogg audio or video, mpeg, flac, webm audio
 * or video, mp4); also the types browsers give mp3 and mov files.
 */
export const uploadMediaTypes = [
  'audio/wav',
  'audio/x-wav',
  'audio/wave',
  'audio/vnd.wave',
  'audio/ogg',
  'video/ogg',
  'audio/mpeg',
  'audio/mp3',
  'audio/flac',
  'audio/x-flac',
  'audio/webm',
  'video/webm',
  'audio/mp4',
  'video/mp4',
  'audio/x-m4a',
  'video/quicktime',
] as const;
export type UploadMediaType = (typeof uploadMediaTypes)[number];

/** Each letter of `text` as a class of both cases (JSON Schema patterns have no `i` flag). */
function caseless(text: string): string {
  return text.replace(/[a-z]/g, (letter) => `[${letter}${letter.toUpperCase()}]`).replace(/[.+]/g, '\\$&');
}

/**
 * The rule of an upload's MIME type as a pattern the OpenAPI document states and the server applies
 * alike: one of the types above in any case, with optional parameters (`;codecs=opus`) in printable
 * ASCII, spaces or tabs around the type.
 */
export const uploadMediaTypePattern = new RegExp(
  `^[ \\t]*(?:${uploadMediaTypes.map(caseless).join('|')})[ \\t]*(?:;[ -~]*)?$`,
);

/** True when a file of this MIME type may be uploaded (parameters such as `;codecs=` ignored). */
export function isUploadMediaType(type: string): type is UploadMediaType {
  return uploadMediaTypePattern.test(type);
}

/** Spec §3 Transcript status: pending, processing, then done or processing_failed. */
export const transcriptStatuses = ['pending', 'processing', 'done', 'processing_failed'] as const;
export const transcriptStatusSchema = z.enum(transcriptStatuses).meta({ id: 'TranscriptStatus' });
export type TranscriptStatus = z.infer<typeof transcriptStatusSchema>;

/**
 * An http(s) address as the document states it and the server checks it: the scheme, then a host
 * of letters, digits, dots, hyphens (or a bracketed IPv6 address), an optional port and an optional
 * path/query of printable ASCII.
 */
export const httpUrlPattern =
  /^[hH][tT][tT][pP][sS]?:\/\/(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?(?:[/?#][!-~]*)?$/;

const httpUrlSchema = z.url({ protocol: /^https?$/ });

function isHttpUrl(value: string): boolean {
  return httpUrlPattern.test(value) && httpUrlSchema.safeParse(value).success;
}

/**
 * Spec §5: an optional webhook URL; when given it must be http or https. Empty means none. The
 * document states the pattern (or the empty string); the server applies the same.
 */
export const callbackUrlSchema = z
  .union([
    z.literal(''),
    z
      .string({ error: uploadValidationMessages.urlInvalid })
      .max(2048, uploadValidationMessages.urlInvalid)
      .regex(httpUrlPattern, uploadValidationMessages.urlInvalid)
      .refine(isHttpUrl, uploadValidationMessages.urlInvalid),
  ])
  .transform((value) => (value === '' ? undefined : value))
  .optional();

/** Spec §5: the language of the recording, at least 2 characters. */
export const uploadLanguageSchema = z
  .string({ error: uploadValidationMessages.languageInvalid })
  .trim()
  .min(2, uploadValidationMessages.languageInvalid)
  .max(20, uploadValidationMessages.languageInvalid)
  .regex(/^([a-z]{2,3}(-[A-Za-z0-9]{2,12})*|auto)$/, uploadValidationMessages.languageInvalid);

/** Spec §5: the file picked (its name, size in bytes and MIME type), checked before any upload. */
export const uploadFileSchema = z.object({
  name: z
    .string({ error: uploadValidationMessages.fileInvalid })
    .trim()
    .min(1, uploadValidationMessages.fileInvalid)
    .max(255, uploadValidationMessages.fileInvalid),
  size: z
    .int({ error: uploadValidationMessages.fileInvalid })
    .min(1, uploadValidationMessages.fileInvalid)
    .max(maxUploadBytes, uploadValidationMessages.fileInvalid),
  type: z
    .string({ error: uploadValidationMessages.fileInvalid })
    .regex(uploadMediaTypePattern, uploadValidationMessages.fileInvalid)
    .describe(`The MIME type: ${uploadMediaTypes.join(', ')} (any case, parameters allowed).`),
});

/** Spec §3 Upload payload: the upload modal's form (file, languageCode, fileName, callbackUrl). */
export const uploadPayloadSchema = z.object({
  file: uploadFileSchema,
  languageCode: uploadLanguageSchema,
  fileName: z.string().trim().min(1, uploadValidationMessages.fileInvalid).max(255),
  callbackUrl: callbackUrlSchema,
});
export type UploadPayload = z.input<typeof uploadPayloadSchema>;

const sha1Schema = z
  .string({ error: uploadValidationMessages.fileInvalid })
  .trim()
  .toLowerCase()
  .regex(/^[0-9a-f]{40}$/, uploadValidationMessages.fileInvalid);

const uploadSpeakerCount = z.int().min(1).max(maxDiarizationSpeakers);

/**
 * `POST /media/recordings`: the placeholder of an upload, from the file's metadata. `sha1` is the
 * hex SHA-1 of the whole file, checked when the last byte has arrived.
 */
export const createRecordingRequestSchema = z
  .object({
    fileName: uploadFileSchema.shape.name,
    size: uploadFileSchema.shape.size,
    type: uploadFileSchema.shape.type,
    languageCode: uploadLanguageSchema,
    callbackUrl: callbackUrlSchema,
    sha1: sha1Schema,
    /** Send the transcript to this CRM contact by itself once it is done. */
    crm: sendToCrmRequestSchema.optional(),
    /**
     * Tell who speaks when (speakers S1, S2… in the transcript and every format); left out: the
     * account's default (`transcripts.diarize` in the settings).
     */
    diarize: z.boolean().optional(),
    /** How many speakers there are, when known (with diarize). */
    speakers: uploadSpeakerCount.optional(),
    minSpeakers: uploadSpeakerCount.optional(),
    maxSpeakers: uploadSpeakerCount.optional(),
  })
  .superRefine(checkDiarizationOptions)
  .meta({ id: 'CreateRecordingRequest' });
export type CreateRecordingRequest = z.input<typeof createRecordingRequestSchema>;

/**
 * The answer of `POST /media/recordings` and of each `PUT /media/{fileId}`: `size` is how many
 * bytes the server holds, where the next chunk starts. Creating the placeholder of a file whose
 * upload was interrupted (same name, size and SHA-1) answers the same file, so a reloaded console
 * resumes where it stopped.
 */
export const recordingUploadStateSchema = z
  .object({
    fileId: z.string(),
    size: z.int().nonnegative(),
    /** True once every byte arrived and the SHA-1 matched: the transcription job is queued. */
    isCompleted: z.boolean(),
  })
  .meta({ id: 'RecordingUploadState' });
export type RecordingUploadState = z.infer<typeof recordingUploadStateSchema>;

/** `PUT /media/{fileId}`: the header saying where the chunk in the multipart field `theFile` starts. */
export const uploadChunkHeadersSchema = z.object({
  'x-start-byte': z.coerce.number().int().min(0).max(maxUploadBytes),
});

/** 409 UPLOAD_OFFSET_MISMATCH: the chunk did not start where the server stands; resume from `size`. */
export const uploadOffsetMismatchSchema = apiErrorSchema
  .extend({ size: z.int().nonnegative() })
  .meta({ id: 'UploadOffsetMismatch' });
export type UploadOffsetMismatch = z.infer<typeof uploadOffsetMismatchSchema>;

/**
 * 409 UPLOAD_IN_PROGRESS: another request is writing this upload; send the chunk again after
 * `retryAfterSeconds` (also the Retry-After header), from the size `GET /media/{fileId}` gives.
 */
export const uploadInProgressSchema = apiErrorSchema
  .extend({ retryAfterSeconds: z.int().positive() })
  .meta({ id: 'UploadInProgress' });
export type UploadInProgress = z.infer<typeof uploadInProgressSchema>;

/** Where a file's webhook stands: none asked, being delivered (or retried), delivered, or given up. */
export const webhookStatusSchema = z.enum(['none', 'pending', 'delivered', 'failed']);
export type WebhookStatus = z.infer<typeof webhookStatusSchema>;

/** Spec §3 Submitted file, plus what the table and the API show besides. */
export const submittedFileSchema = z
  .object({
    id: z.string(),
    creationDate: z.iso.datetime({ offset: true }),
    fileName: z.string(),
    /** The language asked for (`auto`: detected). */
    languageCode: z.string(),
    /** The language recognised, once processed. */
    detectedLanguage: z.string().nullable(),
    /** Seconds of audio, once probed; null before. */
    duration: z.number().nonnegative().nullable(),
    callbackUrl: z.string().nullable(),
    /** Bytes of the file. */
    size: z.int().nonnegative(),
    /** Bytes received so far. */
    uploadedSize: z.int().nonnegative(),
    /** Uploaded: every byte arrived and was checked. */
    isCompleted: z.boolean(),
    transcriptStatus: transcriptStatusSchema,
    /** 0–100 while processing; 100 when done. */
    progress: z.int().min(0).max(100),
    /** A sentence for humans when processing failed ("No speech found", "Insufficient credit"…). */
    failureReason: z.string().nullable(),
    webhookStatus: webhookStatusSchema,
  })
  .meta({ id: 'SubmittedFile' });
export type SubmittedFile = z.infer<typeof submittedFileSchema>;

/** `GET /files/third-party?start=&limit=`: `start` is the offset of the first file (0, 10, 20…). */
export const filesPageQuerySchema = z.object({
  start: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(filesPageSize),
});
export type FilesPageQuery = z.input<typeof filesPageQuerySchema>;

/** One page of files, newest first; `pagination.next_page` is the `start` of the next page, or null. */
export const filesPageSchema = z
  .object({
    list: z.array(submittedFileSchema),
    pagination: z.object({
      next_page: z.int().nonnegative().nullable(),
      total: z.int().nonnegative(),
    }),
  })
  .meta({ id: 'SubmittedFilesPage' });
export type FilesPage = z.infer<typeof filesPageSchema>;

export const fileIdParamsSchema = z.object({ fileId: z.string().min(1).max(64) });

/** Spec §7: the formats of `GET /transcripts/download`, by MIME type, with each file's extension. */
export const downloadFormats = {
  'text/plain': 'txt',
  'application/json': 'json',
  'application/x-subrip': 'srt',
  'text/vtt': 'vtt',
} as const;
export type DownloadFormat = keyof typeof downloadFormats;
export const downloadFormatSchema = z.enum(
  Object.keys(downloadFormats) as [DownloadFormat, ...DownloadFormat[]],
);

/** The most files one download may gather in an archive. */
export const maxDownloadFiles = 100;

/**
 * `GET /transcripts/download?fileIds=a,b&format=text/plain`: one id answers the transcript itself
 * (Content-Type of the format, Content-Disposition with its name); several give one zip archive.
 */
/** Comma-separated file ids with at least one id among them (each id is looked up; unknown ones are not found). */
const downloadIdsSchema = z
  .string()
  .regex(/[^,\s]/, 'Give at least one file id.')
  .describe('File ids, comma-separated.');

export const downloadQuerySchema = z.object({
  fileIds: z
    .union([downloadIdsSchema, z.array(downloadIdsSchema).min(1)])
    .transform((value) =>
      [...new Set((Array.isArray(value) ? value : [value]).flatMap((item) => item.split(',')))]
        .map((id) => id.trim())
        .filter((id) => id !== ''),
    )
    .pipe(z.array(z.string()).min(1).max(maxDownloadFiles)),
  format: downloadFormatSchema.default('text/plain'),
});
export type DownloadQuery = z.input<typeof downloadQuerySchema>;

/** One delivery attempt of a file's webhook, as logged. */
export const webhookAttemptSchema = z
  .object({
    id: z.string(),
    /** The message id sent as `webhook-id` (the same for every attempt of one message). */
    messageId: z.string(),
    /** 1 for the first attempt of a message. */
    attempt: z.int().positive(),
    at: z.iso.datetime({ offset: true }),
    url: z.string(),
    /** The receiver's HTTP status; null when no answer came (timeout, refused address, network). */
    statusCode: z.int().nullable(),
    /** Why it failed, for humans; null on success. */
    error: z.string().nullable(),
    durationMs: z.int().nonnegative(),
    succeeded: z.boolean(),
    /** When the next attempt is due; null when none will follow. */
    nextAttemptAt: z.iso.datetime({ offset: true }).nullable(),
  })
  .meta({ id: 'WebhookAttempt' });
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>;

/** `GET /files/third-party/{fileId}/webhook-attempts`: newest first. */
export const webhookAttemptsSchema = z
  .object({ attempts: z.array(webhookAttemptSchema) })
  .meta({ id: 'WebhookAttempts' });
export type WebhookAttempts = z.infer<typeof webhookAttemptsSchema>;

/** `POST /files/third-party/{fileId}/webhook-resend`: a new message is queued for delivery. */
export const webhookResendSchema = z.object({ messageId: z.string() }).meta({ id: 'WebhookResend' });
export type WebhookResend = z.infer<typeof webhookResendSchema>;

/**
 * `GET /webhooks/signing-secret` (and `POST /webhooks/signing-secret/rotate`): the account's secret
 * for verifying webhook signatures (Standard Webhooks: `whsec_` then base64 of the key).
 */
export const webhookSigningSecretSchema = z
  .object({ secret: z.string().startsWith('whsec_') })
  .meta({ id: 'WebhookSigningSecret' });
export type WebhookSigningSecret = z.infer<typeof webhookSigningSecretSchema>;

/**
 * The body POSTed to a webhook URL when a transcript is done or failed, signed per Standard
 * Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of
 * "id.timestamp.body">`).
 */
export const transcriptWebhookSchema = z
  .object({
    type: z.enum(['transcript.done', 'transcript.failed']),
    fileId: z.string(),
    status: z.enum(['done', 'processing_failed']),
    language: z.string().nullable(),
    duration: z.number().nonnegative().nullable(),
    failureReason: z.string().optional(),
    /** Where the transcript is downloaded (with the account's credentials). */
    transcriptUrl: z.string(),
  })
  .meta({ id: 'TranscriptWebhook' });
export type TranscriptWebhook = z.infer<typeof transcriptWebhookSchema>;

/** Options of `POST /transcripts/jobs` (query parameters or multipart fields). */
export const createTranscriptJobQuerySchema = z
  .object({
    language: uploadLanguageSchema.default('auto').describe('Language of the speech; `auto`: detected.'),
    webhookUrl: callbackUrlSchema.describe('Called when the transcript is done or failed.'),
    url: z
      .url({ protocol: /^https$/, error: uploadValidationMessages.urlInvalid })
      .max(2048)
      .optional()
      .describe('An https address to fetch the recording from, instead of sending it.'),
    fileName: z
      .string()
      .regex(/^[^\s{[]/, 'A file name begins with neither a space nor { or [.')
      .trim()
      .min(1)
      .max(255)
      .optional()
      .describe(
        'The name shown for the job (default: the uploaded file’s or the URL’s). It begins with neither a space nor `{` or `[` (a JSON value in a form field is taken for a mistake).',
      ),
    crmIntegrationId: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe(
        'Send the transcript to a CRM contact once done: the connection (with crmContactId and crmAs).',
      ),
    crmContactId: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .optional()
      .describe('The CRM contact the transcript goes to.'),
    // A plain enum: the multipart body's document is generated apart, without the shared definitions.
    crmAs: z
      .enum(crmDeliveryKinds)
      .optional()
      .describe('`note` or `task` (a task needs crmTaskSubject and crmTaskDueAt).'),
    crmTaskSubject: z.string().trim().min(1).max(200).optional(),
    crmTaskDueAt: z.iso.datetime({ offset: true }).optional(),
    ...diarizationQueryFields,
    ...rawAudioQueryFields,
  })
  .superRefine(checkDiarizationOptions)
  .superRefine(checkRawAudioOptions);
export type CreateTranscriptJobQuery = z.input<typeof createTranscriptJobQuerySchema>;

/** `GET /transcripts/jobs/{id}?format=`: json gives the job; text, srt or vtt the transcript once done. */
export const transcriptJobQuerySchema = z.object({
  format: z.enum(['json', 'text', 'srt', 'vtt']).default('json'),
});

/**
 * The transcript of a done file (`GET /files/third-party/{fileId}/transcript`, and in a job): its
 * id is the file's; speakers carry the names given to them.
 */
export const fileTranscriptSchema = transcriptSchema
  .omit({ billedSeconds: true })
  .meta({ id: 'FileTranscript' });
export type FileTranscript = z.infer<typeof fileTranscriptSchema>;

/** A transcription job of the public API: a submitted file and, once done, its transcript. */
export const transcriptJobSchema = submittedFileSchema
  .extend({
    /** Where the transcript is downloaded in every format once done. */
    transcriptUrl: z.string(),
    /** Present once done (format=json). */
    transcript: fileTranscriptSchema.nullable(),
  })
  .meta({ id: 'TranscriptJob' });
export type TranscriptJob = z.infer<typeof transcriptJobSchema>;

/** A speaker's name: what the transcript shows instead of its id, in every format and CRM send. */
export const speakerNameSchema = z
  .string()
  .trim()
  .min(1, 'A speaker name cannot be empty.')
  .max(80, 'A speaker name has at most 80 characters.')
  .regex(/^[^\p{Cc}<>]+$/u, 'A speaker name has no control characters, < or >.');

/**
 * `PUT /files/third-party/{fileId}/speakers`: new names for some speakers of a diarized
 * transcript (the others keep theirs). Each id must be one of the transcript's speakers.
 */
export const renameSpeakersRequestSchema = z
  .object({
    speakers: z
      .array(z.object({ id: speakerIdSchema, name: speakerNameSchema }))
      .min(1)
      .max(maxDiarizationSpeakers)
      .refine(
        (speakers) => new Set(speakers.map((speaker) => speaker.id)).size === speakers.length,
        'Each speaker id may appear once.',
      ),
  })
  .meta({
    id: 'RenameSpeakersRequest',
    examples: [
      {
        speakers: [
          { id: 'S1', name: 'Anna (sales)' },
          { id: 'S2', name: 'Customer' },
        ],
      },
    ],
  });
export type RenameSpeakersRequest = z.infer<typeof renameSpeakersRequestSchema>;

/** The answer of a rename: every speaker of the transcript with its name now. */
export const fileSpeakersSchema = z.object({ speakers: z.array(transcriptSpeakerSchema) }).meta({
  id: 'FileSpeakers',
  examples: [
    {
      speakers: [
        { id: 'S1', name: 'Anna (sales)' },
        { id: 'S2', name: 'Customer' },
      ],
    },
  ],
});
export type FileSpeakers = z.infer<typeof fileSpeakersSchema>;

/**
 * `POST /files/third-party/{fileId}/audio-url`: a short-lived address of the file's recording,
 * for an `<audio>` element (which cannot send an Authorization header): the signature in the
 * address is the credential, valid until `expiresAt`, for this file only.
 */
export const recordingAudioUrlSchema = z
  .object({
    /** Absolute URL; `GET` it (with `Range` to seek) without other credentials until it expires. */
    url: z.string(),
    expiresAt: z.iso.datetime({ offset: true }),
  })
  .meta({
    id: 'RecordingAudioUrl',
    examples: [
      {
        url: 'https://verbatim.example.com/api/v1/files/third-party/fil_01jqz8m2k4/audio?account=acc_01jqz7&expires=1764190800&signature=3q2-7w',
        expiresAt: '2026-11-26T21:00:00.000Z',
      },
    ],
  });
export type RecordingAudioUrl = z.infer<typeof recordingAudioUrlSchema>;

/** `GET /files/third-party/{fileId}/audio?account=&expires=&signature=`: what `POST …/audio-url` signed. */
export const recordingAudioQuerySchema = z.object({
  account: z.string().min(1).max(64),
  expires: z.coerce.number().int().positive(),
  signature: z.string().min(1).max(200),
});
