"""Batch: 100,000 random hands through `meldcalc meld -f jsonl` (all four trumps) against
an I/O floor (a Python loop that reads each line, splits it and writes a JSON object).

Targets: meldcalc at least 20,000 hands/s, and within 8x of the floor's time.
Usage: python bench/batch.py [--hands N]
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import median_wall_time, random_hands

FLOOR = """
import json, sys
write = sys.stdout.write
for number, line in enumerate(sys.stdin, 1):
    write(json.dumps({"line": number, "cards": line.split()}) + "\\n")
"""


def main() -> None:
    count = int(sys.argv[sys.argv.index("--hands") + 1]) if "--hands" in sys.argv else 100_000
    meldcalc = shutil.which("meldcalc") or sys.exit("meldcalc is not installed on PATH")
    text = ("\n".join(random_hands(count)) + "\n").encode()
    with tempfile.TemporaryDirectory() as tmp:
        floor_script = Path(tmp) / "floor.py"
        floor_script.write_text(FLOOR)
        floor = median_wall_time([sys.executable, str(floor_script)], 3, stdin=text)
        ours = median_wall_time([meldcalc, "meld", "-", "-f", "jsonl"], 3, stdin=text)
    print(f"hands             : {count}")
    print(f"I/O floor         : {count / floor:9.0f} hands/s ({floor:.2f} s)")
    print(f"meldcalc -f jsonl : {count / ours:9.0f} hands/s ({ours:.2f} s)  (target >= 20000)")
    print(f"time ratio        : {ours / floor:9.2f}  (target <= 8)")


if __name__ == "__main__":
    main()
