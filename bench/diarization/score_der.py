"""Diarization error rate as pyannote.metrics computes it, for bench/diarization.ts.

Usage: score_der.py REFERENCE_DIR HYPOTHESIS_DIR NAME...  (NAME.rttm in both folders)
Prints JSON: per file and in total, the DER and its parts in seconds. collar=0.5 is pyannote's
total width: 0.25 s on each side of every reference boundary is not scored; overlapped speech is.
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


def main():
    reference_dir, hypothesis_dir, names = sys.argv[1], sys.argv[2], sys.argv[3:]
    metric = DiarizationErrorRate(collar=0.5, skip_overlap=False)
    files = {}
    for name in names:
        reference = read_rttm(f"{reference_dir}/{name}.rttm", name)
        hypothesis = read_rttm(f"{hypothesis_dir}/{name}.rttm", name)
        files[name] = parts(metric(reference, hypothesis, detailed=True))
    total = parts(metric.accumulated_)
    total["der"] = abs(metric)
    print(json.dumps({"files": files, "total": total}))


main()
