"""Write the shell completion scripts of meldcalc from the app itself.

    python completions/generate.py          # rewrite completions/*
    python completions/generate.py --check  # exit 1 if a file differs from the app's

The scripts are Typer's: they call back into ``meldcalc`` for the words, so commands,
options, formats and variant names stay current without regenerating.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FILES = {"bash": "meldcalc.bash", "zsh": "_meldcalc", "fish": "meldcalc.fish"}


def completion_script(shell: str) -> str:
    """The script the installed app prints for ``shell``."""
    # Typer detects the running shell unless told not to; we want each shell by name.
    env = {**os.environ, "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}
    return subprocess.run(
        [sys.executable, "-m", "meldcalc", "--show-completion", shell],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    ).stdout


def main(check: bool) -> int:
    stale = []
    for shell, name in FILES.items():
        path, script = HERE / name, completion_script(shell)
        if check and (not path.exists() or path.read_text() != script):
            stale.append(name)
        elif not check:
            path.write_text(script)
    for name in stale:
        print(f"completions/{name} differs from the app's; run python completions/generate.py")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(check="--check" in sys.argv[1:]))
