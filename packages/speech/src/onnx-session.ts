import ort from 'onnxruntime-node';

/**
 * An ONNX Runtime session for the small networks that run beside whisper.cpp (Silero VAD, the
 * diarization networks): `threads` of its own, one operator at a time, every graph optimisation.
 * Warnings about unused initialisers would otherwise go to stderr on every start.
 */
export function createOnnxSession(modelPath: string, threads: number): Promise<ort.InferenceSession> {
  return ort.InferenceSession.create(modelPath, {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    logSeverityLevel: 3,
  });
}

/** The inputs and outputs among those named that the session's network lacks. */
export function missingTensors(
  session: ort.InferenceSession,
  inputs: readonly string[],
  outputs: readonly string[],
): string[] {
  return [
    ...inputs.filter((name) => !session.inputNames.includes(name)),
    ...outputs.filter((name) => !session.outputNames.includes(name)),
  ];
}
