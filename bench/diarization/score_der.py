"""Diarization error rate as pyannote.metrics computes it, for bench/diarization.ts.

Usage: score_der.py REFERENCE_DIR HYPOTHESIS_DIR NAME...  (NAME.rttm in both folders)
Prints JSON: per file and in total, the DER and its parts in seconds. collar=0.5 is pyannote's
total width: 0.25 s on each side of every reference boundary is not scored; overlapped speech is.
In total also `bySpeakersAtOnce`: for 1, 2, 3 and 4 or more reference speakers talking at once,
their speech and how much of it the hypothesis misses (a frame with k reference speakers and h
hypothesis ones misses k - h), on 10 ms frames without the collar: where the missed speech is.
"""
import json
import sys
import warnings

from pyannote.core import Annotation, Segment
from pyannote.metrics.diarization import DiarizationErrorRate

warnings.filterwarnings("ignore")  # "uem was approximated": the extent of reference and hypothesis


def read_rttm(path, uri):
    annotation = Annotation(uri=uri)
    with open(path, encoding="utf-8") as lines:
        for index, line in enumerate(lines):
            fields = line.split()
            if len(fields) < 8 or fields[0] != "SPEAKER":
                continue
            start, duration = float(fields[3]), float(fields[4])
            annotation[Segment(start, start + duration), index] = fields[7]
    return annotation


def parts(components):
    return {
        "der": components["diarization error rate"] if "diarization error rate" in components else None,
        "scored": components["total"],
        "missed": components["missed detection"],
        "falseAlarm": components["false alarm"],
        "confusion": components["confusion"],
    }


FRAME_SECONDS = 0.01


def speakers_per_frame(annotation, frames):
    counts = [0] * frames
    for segment, _, _ in annotation.itertracks(yield_label=True):
        for frame in range(int(segment.start / FRAME_SECONDS), min(frames, int(segment.end / FRAME_SECONDS))):
            counts[frame] += 1
    return counts


def missed_by_speakers_at_once(reference, hypothesis, totals):
    frames = int(reference.get_timeline().extent().end / FRAME_SECONDS) + 1
    expected = speakers_per_frame(reference, frames)
    found = speakers_per_frame(hypothesis, frames)
    for speaking, heard in zip(expected, found):
        if speaking == 0:
            continue
        bucket = totals["4+" if speaking >= 4 else str(speaking)]
        bucket["speech"] += speaking * FRAME_SECONDS
        bucket["missed"] += max(0, speaking - heard) * FRAME_SECONDS


def main():
    reference_dir, hypothesis_dir, names = sys.argv[1], sys.argv[2], sys.argv[3:]
    metric = DiarizationErrorRate(collar=0.5, skip_overlap=False)
    files = {}
    by_speakers = {count: {"speech": 0.0, "missed": 0.0} for count in ("1", "2", "3", "4+")}
    for name in names:
        reference = read_rttm(f"{reference_dir}/{name}.rttm", name)
        hypothesis = read_rttm(f"{hypothesis_dir}/{name}.rttm", name)
        files[name] = parts(metric(reference, hypothesis, detailed=True))
        missed_by_speakers_at_once(reference, hypothesis, by_speakers)
    total = parts(metric.accumulated_)
    total["der"] = abs(metric)
    total["bySpeakersAtOnce"] = by_speakers
    print(json.dumps({"files": files, "total": total}))


main()
