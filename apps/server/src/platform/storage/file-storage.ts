/** Files the product keeps (photos, uploads, transcripts, invoices), by key such as `profile-photos/acc_1.jpg`. */
export interface FileStorage {
  put(key: string, data: Buffer): Promise<void>;
  get(key: string): Promise<Buffer | undefined>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
}

/** Keys are relative paths of safe segments: no traversal, no hidden files, no absolute paths. */
export function assertSafeKey(key: string): void {
  const segments = key.split('/');
  if (
    segments.length === 0 ||
    segments.some(
      (segment) => !/^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$/.test(segment) || segment.includes('..'),
    )
  ) {
    throw new Error(`unsafe storage key "${key}"`);
  }
}
