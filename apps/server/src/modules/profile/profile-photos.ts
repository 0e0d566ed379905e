import { AppError } from '../../errors/app-error.js';
import { InvalidJpegError, stripJpegMetadata } from '../../lib/jpeg.js';
import type { FileStorage } from '../../platform/storage/file-storage.js';

const acceptedTypes = new Set(['image/jpeg', 'image/jpg', 'image/pjpeg']);

/** Profile photos: JPEG only, metadata removed, one per account, visible to its owner. */
export class ProfilePhotos {
  constructor(
    private readonly storage: FileStorage,
    readonly maxBytes: number,
  ) {}

  /** Where the console fetches an account's photo (with its access token). */
  static urlOf(accountId: string): string {
    return `/api/v1/media/profile-photos/${accountId}.jpg`;
  }

  async save(accountId: string, data: Buffer, mimeType: string): Promise<void> {
    if (!acceptedTypes.has(mimeType.toLowerCase())) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'The photo must be a JPEG image (image/jpeg).');
    }
    if (data.length > this.maxBytes) {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `The photo must be at most ${Math.floor(this.maxBytes / 1024)} KiB.`,
      );
    }
    let jpeg: Buffer;
    try {
      jpeg = stripJpegMetadata(data).jpeg;
    } catch (error) {
      if (error instanceof InvalidJpegError)
        throw new AppError('INVALID_FILE', 'The file is not a valid JPEG image.');
      throw error;
    }
    await this.storage.put(this.#key(accountId), jpeg);
  }

  find(accountId: string): Promise<Buffer | undefined> {
    return this.storage.get(this.#key(accountId));
  }

  exists(accountId: string): Promise<boolean> {
    return this.storage.exists(this.#key(accountId));
  }

  #key(accountId: string): string {
    return `profile-photos/${accountId}.jpg`;
  }
}
