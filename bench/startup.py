"""Start-up: `meldcalc meld <12 cards> -t S -f total` against a minimal Typer app.

Both are timed in the same run, alternating, so the ratio holds on a noisy machine.
Target: ratio at most 1.25.   Usage: python bench/startup.py [--runs N]
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import median_wall_time

MINIMAL_APP = """
import typer
app = typer.Typer()
@app.command()
def main(hand: str, trump: str = "S", fmt: str = "total") -> None:
    print(len(hand.split()))
app()
"""
HAND = "AS 10S KS QS JS JD 9S 9S AH AD AC KH"


def main() -> None:
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 30
    meldcalc = shutil.which("meldcalc") or sys.exit("meldcalc is not installed on PATH")
    with tempfile.TemporaryDirectory() as tmp:
        minimal = Path(tmp) / "minimal.py"
        minimal.write_text(MINIMAL_APP)
        ours_cmd = [meldcalc, "meld", HAND, "-t", "S", "-f", "total"]
        base_cmd = [sys.executable, str(minimal), HAND]
        base_times, ours_times = [], []
        for _ in range(runs):  # interleave so drifts in machine load hit both alike
            base_times.append(median_wall_time(base_cmd, 1))
            ours_times.append(median_wall_time(ours_cmd, 1))
    base, ours = sorted(base_times)[runs // 2], sorted(ours_times)[runs // 2]
    print(f"minimal Typer app : {base * 1000:7.1f} ms (median of {runs})")
    print(f"meldcalc meld     : {ours * 1000:7.1f} ms (median of {runs})")
    print(f"ratio             : {ours / base:7.2f}  (target <= 1.25)")


if __name__ == "__main__":
    main()
