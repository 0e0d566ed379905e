/**
 * What the console remembers of an unfinished upload, so that it resumes after a reload (spec §4):
 * the file's SHA-1 (not computed twice) and the placeholder it was being sent to.
 */
export interface UnfinishedUpload {
  sha1: string;
  fileId?: string;
  /** The language and webhook the placeholder was created with: another choice makes another. */
  target?: string;
}

/** Where unfinished uploads are kept; localStorage in the browser. */
export interface UploadResumeStore {
  get(fingerprint: string): UnfinishedUpload | undefined;
  set(fingerprint: string, upload: UnfinishedUpload): void;
  delete(fingerprint: string): void;
}

const storageKey = 'verbatim.unfinishedUploads';
/** Older entries than this are forgotten: the server drops abandoned placeholders long before. */
const maxEntries = 20;

/**
 * A file as the browser describes it: a reloaded page cannot keep the file itself, but picking the
 * same file again gives the same name, size, type and modification time.
 */
export function fileFingerprint(file: Pick<File, 'name' | 'size' | 'type' | 'lastModified'>): string {
  return JSON.stringify([file.name, file.size, file.type, file.lastModified]);
}

function isUnfinishedUpload(value: unknown): value is UnfinishedUpload {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.sha1 === 'string' &&
    ['undefined', 'string'].includes(typeof entry.fileId) &&
    ['undefined', 'string'].includes(typeof entry.target)
  );
}

/** The store in `storage` (localStorage by default); unreadable contents count as empty. */
export function localUploadResumeStore(storage: Storage = window.localStorage): UploadResumeStore {
  const read = (): [string, UnfinishedUpload][] => {
    try {
      const parsed: unknown = JSON.parse(storage.getItem(storageKey) ?? '[]');
      if (!Array.isArray(parsed)) return [];
      return parsed.filter(
        (item): item is [string, UnfinishedUpload] =>
          Array.isArray(item) && typeof item[0] === 'string' && isUnfinishedUpload(item[1]),
      );
    } catch {
      return [];
    }
  };
  const write = (entries: [string, UnfinishedUpload][]) => {
    try {
      storage.setItem(storageKey, JSON.stringify(entries.slice(-maxEntries)));
    } catch {
      // Storage full or refused (private mode): the upload still works, it just cannot resume.
    }
  };
  return {
    get: (fingerprint) => read().find(([key]) => key === fingerprint)?.[1],
    set: (fingerprint, upload) =>
      write([...read().filter(([key]) => key !== fingerprint), [fingerprint, upload]]),
    delete: (fingerprint) => write(read().filter(([key]) => key !== fingerprint)),
  };
}
