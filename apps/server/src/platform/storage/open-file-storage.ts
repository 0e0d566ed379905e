import { ConfigError, type Config } from '../../config/config.js';
import type { FileStorage } from './file-storage.js';
import { LocalFileStorage } from './local-file-storage.js';
import { S3FileStorage, S3StorageProblem } from './s3-file-storage.js';

/**
 * The configured file storage, checked before the server takes requests: a bucket that does not
 * exist or refuses the credentials stops the start with a ConfigError naming the variable to fix.
 */
export async function openFileStorage(
  config: Config['storage'],
): Promise<{ storage: FileStorage; close: () => Promise<void> }> {
  if (config.kind === 'local') {
    return { storage: new LocalFileStorage(config.directory), close: () => Promise.resolve() };
  }
  const storage = new S3FileStorage(config.s3);
  try {
    await storage.verify();
  } catch (error) {
    storage.close();
    if (error instanceof S3StorageProblem) throw new ConfigError([`${error.variable}: ${error.message}`]);
    throw error;
  }
  return {
    storage,
    close: () => {
      storage.close();
      return Promise.resolve();
    },
  };
}
