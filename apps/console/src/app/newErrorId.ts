/**
 * An id for a failure the console detected itself, logged with the error and shown to the user so
 * support can match the two. randomUUID only exists on secure origins, hence the fallback.
 */
export function newErrorId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
