/**
 * The two networks speaker diarization needs, as they are named in the models folder and in the
 * catalogue (`verbatim models download <name>`). Their file names are the catalogue name + `.onnx`.
 */
export const segmentationModelName = 'pyannote-segmentation-3.0';
export const embeddingModelName = '3dspeaker-campplus-zh-en-16k-common-advanced';
export const diarizationModelNames = [segmentationModelName, embeddingModelName] as const;

export const diarizationModelFileName = (name: string): string => `${name}.onnx`;
