"""faster-whisper on the benchmark's files: the peer that bench/speech.ts compares Verbatim with.

Reads one JSON request on stdin: {"modelDir", "language", "threads", "beamSize", "files": [...]},
and prints one JSON object: the text of each file and the seconds spent, model load included (as a
user runs a folder), timed from inside the process so that Python's own start-up is left out as
Node's is on Verbatim's side. Settings as the issue fixed them: CTranslate2 int8, the given CPU
threads, beam 5, no VAD, language given; everything else faster-whisper's defaults.
"""

import json
import sys
import time

from faster_whisper import WhisperModel


def main() -> None:
    request = json.load(sys.stdin)
    started = time.perf_counter()
    cpu_started = time.process_time()
    model = WhisperModel(
        request["modelDir"],
        device="cpu",
        compute_type="int8",
        cpu_threads=request["threads"],
        num_workers=1,
    )
    loaded = time.perf_counter()
    texts = []
    for path in request["files"]:
        segments, _info = model.transcribe(
            path,
            language=request["language"],
            beam_size=request["beamSize"],
            vad_filter=False,
        )
        texts.append(" ".join(segment.text.strip() for segment in segments))
    finished = time.perf_counter()
    json.dump(
        {
            "texts": texts,
            "seconds": finished - started,
            "cpuSeconds": time.process_time() - cpu_started,
            "loadSeconds": loaded - started,
        },
        sys.stdout,
    )


if __name__ == "__main__":
    main()
