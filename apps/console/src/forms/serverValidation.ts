import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiRequestError } from '../api/ApiRequestError';

/**
 * Puts the messages of a 400 VALIDATION_FAILED answer under the fields they concern (spec §8);
 * returns whether any field took one.
 */
export function showServerValidation<Values extends FieldValues>(
  error: unknown,
  fields: readonly Path<Values>[],
  setError: UseFormSetError<Values>,
): boolean {
  if (!(error instanceof ApiRequestError) || error.code !== 'VALIDATION_FAILED') return false;
  let shown = false;
  for (const issue of error.details ?? []) {
    const field = fields.find((name) => name === issue.path[0]);
    if (issue.location !== 'body' || !field) continue;
    setError(field, { type: 'server', message: issue.message });
    shown = true;
  }
  return shown;
}
