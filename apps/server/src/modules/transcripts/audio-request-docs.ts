import { z } from 'zod';

/**
 * The OpenAPI requestBody of a transcription route: a raw recording, or multipart/form-data with
 * the recording in `fileField` and the route's options as form fields.
 */
export function audioRequestBody(
  fileField: string,
  fields: z.ZodObject,
  options: { requiredFields?: string[]; multipartOnly?: boolean } = {},
) {
  const binary = { type: 'string', format: 'binary', description: 'The recording.' };
  const fieldSchema = z.toJSONSchema(fields, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, unknown>;
  };
  const multipartSchema = {
    type: 'object',
    required: [fileField, ...(options.requiredFields ?? [])],
    properties: { [fileField]: binary, ...fieldSchema.properties },
  };
  return {
    required: true,
    content: {
      'multipart/form-data': { schema: multipartSchema },
      ...(options.multipartOnly
        ? {}
        : {
            'audio/*': { schema: binary },
            'video/*': { schema: binary },
            'application/octet-stream': { schema: binary },
          }),
    },
  };
}
