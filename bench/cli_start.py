"""How long ``narrator --help`` takes, start to exit (target: 300 ms or less).

Runs ``python -m narrator --help`` N times (default 15) after one warm-up and prints the
median and the fastest, beside a bare ``python -c pass`` and ``import typer`` for scale.
Usage: python bench/cli_start.py [N]
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "python -c 'import typer'": [sys.executable, "-c", "import typer"],
    "narrator --help": [sys.executable, "-m", "narrator", "--help"],
}


def timings(command: list[str], runs: int) -> list[float]:
    subprocess.run(command, capture_output=True, check=True)  # warm the file cache
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, check=True)
        out.append((time.perf_counter() - start) * 1000)
    return out


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    for name, command in COMMANDS.items():
        found = timings(command, runs)
        print(f"{name:28} median {statistics.median(found):6.0f} ms   fastest {min(found):6.0f} ms"
              f"   ({runs} runs)")


if __name__ == "__main__":
    main()
