import type { RecordingUploadState } from '@verbatim/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { type UploadProgress, type UploadRequest, uploadRecording } from './resumableUpload';
import { localUploadResumeStore } from './uploadResumeStore';

export type FileUploadState =
  | { status: 'idle' }
  | { status: 'running'; progress: UploadProgress }
  | { status: 'paused'; progress: UploadProgress }
  | { status: 'done'; upload: RecordingUploadState }
  | { status: 'failed'; error: unknown; progress: UploadProgress | undefined };

const pauseReason = () => new DOMException('Upload paused', 'AbortError');

/**
 * Runs one resumable upload for the upload modal: start, pause (the chunk in flight is abandoned),
 * resume (from what the server holds), and stops the transfer when the modal goes away.
 */
export function useFileUpload({ onDone }: { onDone: (upload: RecordingUploadState) => void }) {
  const [state, setState] = useState<FileUploadState>({ status: 'idle' });
  const request = useRef<UploadRequest | null>(null);
  const controller = useRef<AbortController | null>(null);
  const progressRef = useRef<UploadProgress | undefined>(undefined);
  const onDoneRef = useRef(onDone);
  onDoneRef.current = onDone;

  const run = useCallback(async (upload: UploadRequest) => {
    controller.current?.abort(pauseReason());
    const own = new AbortController();
    controller.current = own;
    request.current = upload;
    const initial = progressRef.current ?? { phase: 'hashing', doneBytes: 0, totalBytes: upload.file.size };
    setState({ status: 'running', progress: initial });
    try {
      const done = await uploadRecording(upload, {
        signal: own.signal,
        store: localUploadResumeStore(),
        onProgress: (progress) => {
          progressRef.current = progress;
          if (!own.signal.aborted) setState({ status: 'running', progress });
        },
      });
      setState({ status: 'done', upload: done });
      onDoneRef.current(done);
    } catch (error) {
      if (own.signal.aborted) return;
      setState({ status: 'failed', error, progress: progressRef.current });
    } finally {
      if (controller.current === own) controller.current = null;
    }
  }, []);

  const start = useCallback(
    (upload: UploadRequest) => {
      progressRef.current = undefined;
      void run(upload);
    },
    [run],
  );

  const pause = useCallback(() => {
    controller.current?.abort(pauseReason());
    controller.current = null;
    setState((current) =>
      current.status === 'running' ? { status: 'paused', progress: current.progress } : current,
    );
  }, []);

  const resume = useCallback(() => {
    if (request.current) void run(request.current);
  }, [run]);

  const reset = useCallback(() => {
    controller.current?.abort(pauseReason());
    controller.current = null;
    request.current = null;
    progressRef.current = undefined;
    setState({ status: 'idle' });
  }, []);

  // Leaving the screen pauses the transfer; picking the same file again resumes it.
  useEffect(() => () => controller.current?.abort(pauseReason()), []);

  return { state, start, pause, resume, reset };
}
