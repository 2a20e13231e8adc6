"""The README's two commands are what CI runs: .ci/run installs as the README's install line
does (without playing) and runs the README's test command exactly."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    return re.findall(r"```bash\n(.*?)\n```", (ROOT / "README.md").read_text(encoding="utf-8"))


def test_ci_runs_the_readme_install_and_test_commands():
    install, tests = readme_commands()[:2]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert install.endswith(" && .venv/bin/narrator play slow-burn")
    assert install.removesuffix(" && .venv/bin/narrator play slow-burn") in ci
    assert ci[-1] == tests


def test_the_install_line_needs_no_sudo_as_root_and_no_system_pip():
    install, tests = readme_commands()[:2]
    for line in (install, tests):
        assert "sudo apt-get" not in line.replace("$(command -v sudo) apt-get", "")
        assert "pip install" not in line.replace(".venv/bin/pip install", "")
