"""How long, and how much memory, each hostile script takes to be refused.

Each case of tests/hostile_scripts.py is written to a temporary folder and loaded in a fresh
Python process; printed: the case, the NS code it was refused with, the load time and the
process's peak memory (resident set, including Python itself; the baseline line is a process
that only imports the loader). Target: every case refused within 1 s and 100 MB.

    python bench/hostile_scripts.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from hostile_scripts import HOSTILE  # noqa: E402

CHILD = """
import sys, time
from narrator.script.loader import ScriptError, load_script
if sys.argv[1] == "-":
    print("- 0"); sys.exit()
start = time.perf_counter()
try:
    load_script(sys.argv[1])
    codes = "loaded"
except ScriptError as exc:
    codes = ",".join(sorted({d.code.value for d in exc.diagnostics}))
print(codes, time.perf_counter() - start)
"""


def measure(folder: str) -> tuple[str, float, float]:
    """(codes, seconds, peak MB) of loading ``folder`` in a fresh process."""
    proc = subprocess.Popen([sys.executable, "-c", CHILD, folder], stdout=subprocess.PIPE,
                            text=True, cwd=ROOT)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    codes, seconds = out.split() if proc.returncode == 0 else ("crashed", "nan")
    return codes, float(seconds), usage.ru_maxrss / 1024


def main() -> int:
    print(f"{'case':32} {'code':8} {'want':6} {'load s':>7} {'peak MB':>8}")
    _, _, base = measure("-")
    print(f"{'(baseline: import only)':32} {'':8} {'':6} {'':>7} {base:8.1f}")
    worst_s = worst_mb = 0.0
    failed = 0
    for name, (want, fill) in HOSTILE.items():
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / "hostile"
            folder.mkdir()
            fill(folder)
            codes, seconds, peak = measure(str(folder))
        ok = want in codes.split(",") and seconds < 1 and peak < 100
        failed += not ok
        worst_s, worst_mb = max(worst_s, seconds), max(worst_mb, peak)
        print(f"{name:32} {codes:8} {want:6} {seconds:7.3f} {peak:8.1f}{'' if ok else '  FAIL'}")
    print(f"worst: {worst_s:.3f} s, {worst_mb:.1f} MB peak; target < 1 s and < 100 MB: "
          f"{'met' if not failed else f'{failed} case(s) missed'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
