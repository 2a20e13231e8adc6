"""How long ``narrator --help`` takes, start to exit (target: 300 ms or less).

Runs ``python -m narrator --help`` N times (default 15) after one warm-up and prints the
median and the fastest wall-clock time, and the median CPU time (user + system: what the
command costs, less swayed by other work on a busy machine), beside a bare ``python -c pass``
and ``import typer`` for scale; "on a terminal" runs it with stdout claiming to be a terminal.
Usage: python bench/cli_start.py [N]
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import time

ON_A_TERMINAL = ("import runpy, sys; sys.stdout.isatty = lambda: True; "
                 "sys.argv = ['narrator', '--help']\n"
                 "try: runpy.run_module('narrator', run_name='__main__')\n"
                 "except SystemExit: pass")
COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "python -c 'import typer'": [sys.executable, "-c", "import typer"],
    "narrator --help": [sys.executable, "-m", "narrator", "--help"],
    "narrator --help (terminal)": [sys.executable, "-c", ON_A_TERMINAL],
}


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timings(command: list[str], runs: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU milliseconds of each run."""
    subprocess.run(command, capture_output=True, check=True)  # warm the file cache
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), _cpu()
        subprocess.run(command, capture_output=True, check=True)
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((_cpu() - start_cpu) * 1000)
    return wall, cpu


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    for name, command in COMMANDS.items():
        wall, cpu = timings(command, runs)
        print(f"{name:26} wall: median {statistics.median(wall):5.0f} ms, fastest "
              f"{min(wall):5.0f} ms;  cpu: median {statistics.median(cpu):5.0f} ms  ({runs} runs)")


if __name__ == "__main__":
    main()
