/**
 * The two networks speaker diarization needs, as they are named in the models folder and in the
 * catalogue (`verbatim models download <name>`). Their file names are the catalogue name + `.onnx`.
 */
export const segmentationModelName = 'pyannote-segmentation-3.0';
export const embeddingModelName = '3dspeaker-campplus-zh-en-16k-common-advanced';
export const diarizationModelNames = [segmentationModelName, embeddingModelName] as const;
export type DiarizationModelName = (typeof diarizationModelNames)[number];

export const diarizationModelFileName = (name: string): string => `${name}.onnx`;

/** One diarization network as k2-fsa/sherpa-onnx publishes it in its GitHub releases. */
export interface DiarizationCatalogueModel {
  name: DiarizationModelName;
  fileName: string;
  /** The official download. */
  url: string;
  /** When `url` is a tar.bz2 archive: the path of the ONNX file inside it. */
  archiveMember?: string;
  /** Size of the download (the archive for the segmentation network), approximate. */
  approximateBytes: number;
  /**
   * SHA-256 of copies of the model file we checked ourselves (../shared/models). The official
   * files may differ byte for byte (the shared segmentation file carries extra metadata keys), so a
   * file with another checksum is accepted when ONNX Runtime loads it and it answers as the network
   * must (names, shapes, output on silence): see inspectDiarizationModel.
   */
  knownSha256: readonly string[];
  description: string;
}

const releases = 'https://github.com/k2-fsa/sherpa-onnx/releases/download';

export const diarizationCatalogue: readonly DiarizationCatalogueModel[] = [
  {
    name: segmentationModelName,
    fileName: diarizationModelFileName(segmentationModelName),
    // sherpa-onnx publishes this network only inside a tar.bz2 (model.onnx, model.int8.onnx, a README).
    url: `${releases}/speaker-segmentation-models/sherpa-onnx-pyannote-segmentation-3-0.tar.bz2`,
    archiveMember: 'sherpa-onnx-pyannote-segmentation-3-0/model.onnx',
    approximateBytes: 6_958_444,
    knownSha256: ['d0cd7f96a65abcc9a1e44aac5fce6b23b6fb0dfb8201c16fbed87b7090faab58'],
    description: 'pyannote segmentation-3.0: who speaks in each 10 s window, overlaps included (MIT)',
  },
  {
    name: embeddingModelName,
    fileName: diarizationModelFileName(embeddingModelName),
    url: `${releases}/speaker-recongition-models/3dspeaker_speech_campplus_sv_zh_en_16k-common_advanced.onnx`,
    approximateBytes: 28_281_131,
    knownSha256: ['0d168967d8077022f8d8fd1e2952fa5b91e9038c181867c0d24d773b746d487f'],
    description: '3D-Speaker CAM++ speaker embedding, Chinese and English, 16 kHz (Apache-2.0)',
  },
];

export function findDiarizationModel(name: string): DiarizationCatalogueModel | undefined {
  return diarizationCatalogue.find((model) => model.name === name);
}
