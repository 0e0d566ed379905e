# Build options of ggml (whisper.cpp's tensor library) that whisper-rs does not expose. native/build.mjs
# passes this file to CMake as CMAKE_PROJECT_INCLUDE, so it is read right after each project() call,
# before ggml declares its options.

# llamafile's tinyBLAS kernels for matrix products (ggml enables them in llama.cpp builds, not in
# whisper.cpp's): on the encoder's q8_0 layers and the beams' batched decoder steps they beat ggml's
# own dot products. Measured with bench:speech (base-q8_0, 2 threads): RTF 0.114 -> 0.092 on English
# (greedy), 0.119 -> 0.107 over all languages, same WER.
set(GGML_LLAMAFILE ON CACHE BOOL "ggml: use llamafile's tinyBLAS" FORCE)

# Patches of whisper.cpp's sources.
include("${CMAKE_CURRENT_LIST_DIR}/patch-whisper-source.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/abortable-encoder.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/no-speech-probability.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/five-column-tiles.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/decoder-prefix.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/prompt-logits.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/beam-top-k.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/beam-stop.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/f16-encoder-weights.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/fork-free-buffers.cmake")
