"""Write the HelloBench figures the package ships: checklist weights and the task index.

Run once from the repository root against a HelloBench folder (../shared/data/hellobench):

    .venv/bin/python scripts/make_hellobench_package_data.py ../shared/data/hellobench

`weighted_scores.txt` is parsed as data (never executed). The task index maps each task id to its
category and sub-category, so released judgements can be re-scored without the task folder.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from longeval.hellobench.tasks import CATEGORIES, HelloBenchDataError, parse_weights_text, task_file

PACKAGE_DIR = Path(__file__).resolve().parents[1] / "src" / "longeval" / "hellobench"
SOURCE = "HelloBench (github Quehry/HelloBench @ d403282, MIT licence)"


def write_json(path: Path, data: dict) -> None:
    """One line per top-level entry of each mapping: small files that diff well."""
    lines = ["{"]
    for i, (key, value) in enumerate(data.items()):
        comma = "," if i < len(data) - 1 else ""
        if isinstance(value, dict):
            lines.append(f"  {json.dumps(key)}: {{")
            entries = [f"    {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in value.items()]
            lines.append(",\n".join(entries))
            lines.append(f"  }}{comma}")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    lines.append("}")
    text = "\n".join(lines) + "\n"
    assert json.loads(text) == data
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path}")


def main(data_dir: Path) -> None:
    weights_file = data_dir / "weighted_scores.txt"
    weights = parse_weights_text(weights_file.read_text(encoding="utf-8"), source=str(weights_file))
    write_json(PACKAGE_DIR / "weights.json", {"source": f"{SOURCE}, weighted_scores.txt", "weights": weights})

    tasks: dict[str, dict[str, str]] = {}
    for category in CATEGORIES:
        path = task_file(data_dir, category)
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                if row["category"] not in weights:
                    raise HelloBenchDataError(f"{path}: task {row['id']} has unknown sub-category {row['category']}")
                tasks[row["id"]] = {"category": category, "subcategory": row["category"]}
    write_json(PACKAGE_DIR / "task_index.json", {"source": f"{SOURCE}, data/main_data", "tasks": tasks})


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: make_hellobench_package_data.py HELLOBENCH_DIR")
    main(Path(sys.argv[1]))
