import { spawn } from 'node:child_process';
import { open } from 'node:fs/promises';
import { ModelDownloadError } from '../models/model-download-error.js';
import { downloadModelFile, type DownloadModelOptions } from '../models/model-downloader.js';
import { inspectDiarizationModel, type DiarizationModelFileInfo } from './diarization-model-file.js';
import { findDiarizationModel, diarizationCatalogue } from './diarization-models.js';

export interface DownloadDiarizationModelOptions extends Omit<DownloadModelOptions, 'baseUrl'> {
  /**
   * A mirror holding the official files under their official names; by default the k2-fsa/sherpa-onnx
   * GitHub releases the catalogue names.
   */
  baseUrl?: string;
}

export interface DownloadedDiarizationModel {
  name: string;
  path: string;
  info: DiarizationModelFileInfo;
  resumedFrom: number;
  alreadyInstalled: boolean;
}

/**
 * Downloads one diarization network into the models folder, resumably, like a Whisper model:
 * the segmentation network comes inside sherpa-onnx's tar.bz2, which is downloaded, unpacked
 * (system `tar` with bzip2) and deleted; the file is then checked by inspectDiarizationModel.
 */
export async function downloadDiarizationModel(
  options: DownloadDiarizationModelOptions,
): Promise<DownloadedDiarizationModel> {
  const entry = findDiarizationModel(options.name);
  if (!entry)
    throw new ModelDownloadError(
      'INVALID_NAME',
      `"${options.name}" is not a diarization model (${diarizationCatalogue.map((model) => model.name).join(', ')})`,
    );
  const officialName = entry.url.slice(entry.url.lastIndexOf('/') + 1);
  const url = options.baseUrl ? `${options.baseUrl.replace(/\/+$/, '')}/${officialName}` : entry.url;
  const member = entry.archiveMember;
  const result = await downloadModelFile({
    ...options,
    fileName: entry.fileName,
    url,
    what: `${entry.name} network`,
    inspect: (path) => inspectDiarizationModel(path, entry.name),
    ...(member ? { unpack: (archive: string, into: string) => extractTarMember(archive, member, into) } : {}),
  });
  return { name: entry.name, ...result };
}

/** Writes one member of a (compressed) tar archive to `into`, with the system's tar. */
async function extractTarMember(archive: string, member: string, into: string): Promise<void> {
  const output = await open(into, 'w');
  try {
    await new Promise<void>((resolve, reject) => {
      const tar = spawn('tar', ['-xOf', archive, member], { stdio: ['ignore', output.fd, 'pipe'] });
      let errors = '';
      tar.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
      tar.on('error', (error) => reject(new Error(`cannot run tar: ${error.message}`)));
      tar.on('close', (code) =>
        code === 0 ? resolve() : reject(new Error(errors.trim() || `tar exited with code ${String(code)}`)),
      );
    });
  } finally {
    await output.close();
  }
}
