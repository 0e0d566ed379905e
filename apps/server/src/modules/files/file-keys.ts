/** Where a file's recording and transcript are kept in storage. */
export function recordingKey(accountId: string, fileId: string): string {
  return `recordings/${accountId}/${fileId}.media`;
}

export function transcriptKey(accountId: string, fileId: string): string {
  return `transcripts/${accountId}/${fileId}.json`;
}
