import { mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { isSpeechError } from '../speech-error.js';
import { formatBytes } from './format-bytes.js';
import { inspectModelFile, type ModelFileInfo } from './ggml-model-file.js';
import { modelFileName, modelNamePattern } from './model-catalogue.js';
import { ModelDownloadError } from './model-download-error.js';
import { lockModelFile } from './model-folder-lock.js';

export interface DownloadModelOptions {
  /** `base-q8_0`: fetches `<baseUrl>/ggml-base-q8_0.bin`. */
  name: string;
  /** The model repository, e.g. https://huggingface.co/ggerganov/whisper.cpp/resolve/main */
  baseUrl: string;
  modelsDir: string;
  /** Bytes held so far (including a resumed part) and the full size when the server said it. */
  onProgress?: (received: number, total: number | undefined) => void;
  /** Called once the server has answered: `resumingFrom` > 0 when a partial download continues. */
  onStart?: (start: { url: string; resumingFrom: number; total: number | undefined }) => void;
  signal?: AbortSignal;
  /** Injected for tests of unusual transports; defaults to the global fetch (which follows redirects). */
  fetchImpl?: typeof fetch;
  /** No bytes for this long → STALLED, the part kept for resuming. 30 s. */
  stallTimeoutMs?: number;
}

export interface DownloadedModel {
  name: string;
  path: string;
  bytes: number;
  info: ModelFileInfo;
  /** Bytes that came from an earlier partial download (0 for a fresh one). */
  resumedFrom: number;
  /** The file was already there and valid: nothing was fetched. */
  alreadyInstalled: boolean;
}

/** Models being downloaded or removed by this process (by final path). */
const busy = new Set<string>();

/**
 * Downloads `ggml-<name>.bin` into `<modelsDir>/ggml-<name>.bin.part`, resuming an earlier part with an
 * HTTP Range request, then checks the whole file with inspectModelFile() and renames it into place,
 * so the folder never holds a half-written model under its real name. A broken transfer keeps the part
 * (ModelDownloadError with resumable = true); a complete file that is not a valid model is deleted.
 */
export async function downloadModel(options: DownloadModelOptions): Promise<DownloadedModel> {
  const { name } = options;
  const fileName = modelFileName(name);
  const result = await downloadModelFile({
    ...options,
    fileName,
    url: `${options.baseUrl.replace(/\/+$/, '')}/${fileName}`,
    inspect: inspectModelFile,
    what: 'whisper.cpp model',
  });
  return { ...result, name, bytes: result.info.bytes };
}

/** How to fetch and check one model file of any kind (a Whisper model, a diarization network). */
export interface ModelFileDownload<Info> extends Omit<DownloadModelOptions, 'baseUrl'> {
  fileName: string;
  url: string;
  /** Checks a complete file; throws a SpeechError (with `details.reason`) when it is not usable. */
  inspect: (path: string) => Promise<Info>;
  /** What the file should be, for the message when it is not: "whisper.cpp model". */
  what: string;
  /**
   * When `url` is an archive: writes the model file it holds to `into`. The archive is downloaded
   * (and resumed) as `<fileName>.part`, then unpacked and deleted.
   */
  unpack?: (archivePath: string, into: string) => Promise<void>;
}

/**
 * Downloads `url` into `<modelsDir>/<fileName>.part`, resuming an earlier part with an HTTP Range
 * request, checks the whole file with `inspect` and renames it into place, so the folder never
 * holds a half-written model under its real name. A file already there and valid is kept.
 */
export async function downloadModelFile<Info>(
  options: ModelFileDownload<Info>,
): Promise<{ path: string; info: Info; resumedFrom: number; alreadyInstalled: boolean }> {
  return withModelFile(options.modelsDir, options.name, options.fileName, async (finalPath) => {
    const present = await options.inspect(finalPath).catch(() => undefined);
    if (present !== undefined)
      return { path: finalPath, info: present, resumedFrom: 0, alreadyInstalled: true };
    const { info, resumedFrom } = await fetchIntoPart(options, finalPath);
    return { path: finalPath, info, resumedFrom, alreadyInstalled: false };
  });
}

/**
 * Deletes `ggml-<name>.bin` and any partial download of it. False when there was nothing to delete.
 * Refused (BUSY) while the model is being downloaded.
 */
export async function removeModel(
  modelsDir: string,
  name: string,
  fileName = modelFileName(name),
): Promise<boolean> {
  return withModelFile(modelsDir, name, fileName, async (finalPath) => {
    let removed = false;
    for (const file of [finalPath, `${finalPath}.part`]) {
      try {
        await unlink(file);
        removed = true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    return removed;
  });
}

/** Runs `work` holding this process's guard and the folder's lock file for the model. */
async function withModelFile<T>(
  modelsDir: string,
  name: string,
  fileName: string,
  work: (finalPath: string) => Promise<T>,
): Promise<T> {
  if (!modelNamePattern.test(name))
    throw new ModelDownloadError('INVALID_NAME', `"${name}" is not a model name (such as base-q8_0)`);
  const finalPath = path.resolve(modelsDir, fileName);
  if (busy.has(finalPath))
    throw new ModelDownloadError(
      'BUSY',
      `${fileName} is already being downloaded or removed by this process`,
    );
  busy.add(finalPath);
  try {
    await mkdir(modelsDir, { recursive: true });
    const lock = await lockModelFile(modelsDir, fileName);
    try {
      return await work(finalPath);
    } finally {
      await lock.release();
    }
  } finally {
    busy.delete(finalPath);
  }
}

async function fetchIntoPart<Info>(
  options: ModelFileDownload<Info>,
  finalPath: string,
): Promise<{ info: Info; resumedFrom: number }> {
  const { url } = options;
  const partPath = `${finalPath}.part`;
  // At most two rounds: a part the server cannot continue (wrong range, bad 416) restarts from zero once.
  for (let round = 0; ; round++) {
    const held = await stat(partPath).then(
      (stats) => stats.size,
      () => 0,
    );
    const transfer = new Transfer(options, url);
    const response = await transfer.request(held);
    if (response.status === 416 && held > 0) {
      // "Range not satisfiable": we already hold every byte, or the part is longer than the file.
      await response.body?.cancel();
      try {
        return { info: await checkAndInstall(options, partPath, finalPath), resumedFrom: held };
      } catch (error) {
        if (!(error instanceof ModelDownloadError) || error.reason !== 'INVALID_MODEL') throw error;
      }
      if (round === 0) continue;
    }
    if (response.status === 404) {
      await response.body?.cancel();
      throw new ModelDownloadError('NOT_FOUND', `no model named ${options.name} at ${url}`);
    }
    if (response.status !== 200 && response.status !== 206) {
      await response.body?.cancel();
      throw new ModelDownloadError(
        'HTTP_ERROR',
        `${new URL(url).host} answered ${response.status} ${response.statusText} for ${url}`,
      );
    }

    let from = 0;
    let total = contentLength(response);
    if (response.status === 206) {
      const range = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(response.headers.get('content-range') ?? '');
      if (!range || Number(range[1]) !== held) {
        // A range we did not ask for: start over rather than splice the wrong bytes in.
        await response.body?.cancel();
        await unlink(partPath).catch(() => undefined);
        if (round === 0) continue;
        throw new ModelDownloadError(
          'HTTP_ERROR',
          `${url} answered with the wrong range (${range?.[0] ?? 'none'})`,
        );
      }
      from = held;
      total = range[2] === '*' ? undefined : Number(range[2]);
    }
    // A 200 to a Range request means the server ignored it: the part is rewritten from the start.
    options.onStart?.({ url: response.url || url, resumingFrom: from, total });
    const received = await transfer.saveBody(response, partPath, from, total);
    if (total !== undefined && received !== total) {
      const kept = received < total;
      if (!kept) await unlink(partPath).catch(() => undefined);
      throw new ModelDownloadError(
        'LENGTH_MISMATCH',
        `the download of ${options.name} ended at ${formatBytes(received)} of ${formatBytes(total)}` +
          (kept ? '; run the download again to resume' : ''),
        kept,
      );
    }
    return { info: await checkAndInstall(options, partPath, finalPath), resumedFrom: from };
  }
}

/**
 * Unpacks the part when it is an archive, checks the model file and renames it into place (same
 * folder, so the rename is atomic: readers see no model or the whole model). A file that is not
 * the model asked for is deleted: downloading it again would give the same bytes.
 */
async function checkAndInstall<Info>(
  options: ModelFileDownload<Info>,
  partPath: string,
  finalPath: string,
): Promise<Info> {
  let candidate = partPath;
  if (options.unpack) {
    candidate = `${finalPath}.unpacked`;
    try {
      await options.unpack(partPath, candidate);
    } catch (error) {
      await unlink(candidate).catch(() => undefined);
      await unlink(partPath).catch(() => undefined);
      throw new ModelDownloadError(
        'INVALID_MODEL',
        `the archive downloaded from ${options.url} could not be unpacked (${causeOf(error)}); it was deleted`,
      );
    }
    await unlink(partPath);
  }
  let info: Info;
  try {
    info = await options.inspect(candidate);
  } catch (error) {
    if (!isSpeechError(error)) throw error;
    await unlink(candidate).catch(() => undefined);
    const reason = typeof error.details?.reason === 'string' ? error.details.reason : error.message;
    throw new ModelDownloadError(
      'INVALID_MODEL',
      `the file downloaded from ${options.url} is not a valid ${options.what} (${reason}); it was deleted`,
    );
  }
  await rename(candidate, finalPath);
  return info;
}

function contentLength(response: Response): number | undefined {
  const header = response.headers.get('content-length');
  return header !== null && /^\d+$/.test(header) ? Number(header) : undefined;
}

/** One HTTP exchange with a stall watchdog: any stretch without bytes longer than the timeout aborts it. */
class Transfer {
  private readonly controller = new AbortController();
  private readonly stallTimeoutMs: number;
  private stallTimer: NodeJS.Timeout | undefined;
  private stalled = false;
  private readonly host: string;
  private readonly signal: AbortSignal;

  constructor(
    private readonly options: Omit<DownloadModelOptions, 'baseUrl'>,
    private readonly url: string,
  ) {
    this.stallTimeoutMs = options.stallTimeoutMs ?? 30_000;
    this.host = new URL(url).host;
    this.signal = options.signal
      ? AbortSignal.any([options.signal, this.controller.signal])
      : this.controller.signal;
  }

  async request(held: number): Promise<Response> {
    const fetchImpl = this.options.fetchImpl ?? fetch;
    this.watch();
    try {
      return await fetchImpl(this.url, {
        headers: held > 0 ? { range: `bytes=${held}-` } : {},
        redirect: 'follow',
        signal: this.signal,
      });
    } catch (error) {
      throw this.failure('UNREACHABLE', `cannot reach ${this.host} (${causeOf(error)})`, held > 0);
    } finally {
      this.stopWatching();
    }
  }

  /** Writes the body to the part file (appending from `from`); returns the part's final size. */
  async saveBody(
    response: Response,
    partPath: string,
    from: number,
    total: number | undefined,
  ): Promise<number> {
    const handle = await open(partPath, from > 0 ? 'a' : 'w');
    let received = from;
    try {
      if (!response.body) throw new ModelDownloadError('HTTP_ERROR', `${this.url} answered without a body`);
      // The DOM-less typings leave the chunk type open; fetch bodies are byte streams.
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      this.watch();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        this.watch();
        await handle.write(value);
        received += value.byteLength;
        this.options.onProgress?.(received, total);
      }
      await handle.sync();
      return received;
    } catch (error) {
      if (error instanceof ModelDownloadError) throw error;
      const held =
        total === undefined ? formatBytes(received) : `${formatBytes(received)} of ${formatBytes(total)}`;
      throw this.failure(
        'INTERRUPTED',
        `the connection to ${this.host} broke after ${held} (${causeOf(error)}); run the download again to resume`,
        received > 0,
      );
    } finally {
      this.stopWatching();
      await handle.close();
    }
  }

  private failure(reason: 'UNREACHABLE' | 'INTERRUPTED', message: string, resumable: boolean) {
    if (this.stalled)
      return new ModelDownloadError(
        'STALLED',
        `no data from ${this.host} for ${Number((this.stallTimeoutMs / 1000).toFixed(1))} s` +
          (resumable ? '; the partial download is kept, run it again to resume' : ''),
        resumable,
      );
    if (this.options.signal?.aborted)
      return new ModelDownloadError(
        'CANCELLED',
        `the download was cancelled${resumable ? '; the partial download is kept, run it again to resume' : ''}`,
        resumable,
      );
    return new ModelDownloadError(reason, message, resumable);
  }

  private watch(): void {
    clearTimeout(this.stallTimer);
    this.stallTimer = setTimeout(() => {
      this.stalled = true;
      this.controller.abort();
    }, this.stallTimeoutMs);
  }

  private stopWatching(): void {
    clearTimeout(this.stallTimer);
  }
}

/** The useful part of a fetch failure: undici wraps the socket error (ECONNREFUSED, ENOTFOUND…) in `cause`. */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}
