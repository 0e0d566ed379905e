import multipart from '@fastify/multipart';
import { apiErrorSchema, profileSchema } from '@verbatim/contracts';
import type { onRequestAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors/app-error.js';
import { signedInAccount } from '../../http/authenticate.js';
import type { ProfilePhotos } from './profile-photos.js';
import type { ProfileService } from './profile.service.js';

const params = z.object({ fileName: z.string().regex(/^[\w-]{1,64}\.jpg$/, 'must be {userId}.jpg') });

function ownerOf(fileName: string): string {
  return fileName.slice(0, -'.jpg'.length);
}

/** PUT and GET /media/profile-photos/{userId}.jpg: each account reaches only its own photo. */
export function profilePhotoRoutes(
  photos: ProfilePhotos,
  profiles: ProfileService,
  authenticate: onRequestAsyncHookHandler,
): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', authenticate);
    await app.register(multipart, {
      limits: { fileSize: photos.maxBytes, files: 1, fields: 4, parts: 5 },
    });

    app.put(
      '/media/profile-photos/:fileName',
      {
        config: { rateLimit: { max: 20, timeWindow: 15 * 60_000 } },
        schema: {
          tags: ['profile'],
          summary: 'Upload the profile photo: multipart/form-data with the JPEG in the field theFile',
          consumes: ['multipart/form-data'],
          params,
          response: { 200: profileSchema, '4xx': apiErrorSchema },
        },
      },
      async (request) => {
        const account = signedInAccount(request);
        if (ownerOf(request.params.fileName) !== account.id) {
          throw new AppError('FORBIDDEN', 'You can only change your own photo.');
        }
        if (!request.isMultipart()) {
          throw new AppError(
            'UNSUPPORTED_MEDIA_TYPE',
            'Send the photo as multipart/form-data in the field theFile.',
          );
        }
        let upload;
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            if (part.fieldname !== 'theFile')
              throw new AppError('INVALID_FILE', 'Send the photo in the field theFile.');
            upload = { data: await part.toBuffer(), mimeType: part.mimetype };
          }
        }
        if (!upload) throw new AppError('INVALID_FILE', 'Send the photo in the field theFile.');
        await photos.save(account.id, upload.data, upload.mimeType);
        return profiles.toProfile(account);
      },
    );

    app.get(
      '/media/profile-photos/:fileName',
      {
        schema: {
          tags: ['profile'],
          summary: 'The profile photo (image/jpeg), for its owner',
          params,
          produces: ['image/jpeg'],
          response: { 200: z.any().describe('the JPEG image'), '4xx': apiErrorSchema },
        },
      },
      async (request, reply) => {
        const account = signedInAccount(request);
        // Someone else's photo is answered exactly like a missing one.
        const photo =
          ownerOf(request.params.fileName) === account.id ? await photos.find(account.id) : undefined;
        if (!photo) throw new AppError('NOT_FOUND', 'There is no photo here.');
        return reply.type('image/jpeg').header('cache-control', 'private, no-cache').send(photo);
      },
    );
  };
}
