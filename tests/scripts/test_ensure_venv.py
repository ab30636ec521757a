"""``scripts/ensure-venv``: installs when pyproject.toml changed, or when the extras asked
for were never installed with it, and at no other time.

Each test runs the real script in a folder of its own with a stand-in installer (a ``uv``
that only writes down what it was asked), so no package is fetched and nothing is slow.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "ensure-venv"

FAKE_UV = """#!/bin/sh
echo "$*" >> "$(dirname "$0")/../../installs.txt"
"""
"""Writes down each install it is asked for, one line each, and installs nothing."""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project folder with a pyproject.toml and a venv whose installer is the stand-in."""
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "referee"\n')
    bin_folder = tmp_path / ".venv" / "bin"
    bin_folder.mkdir(parents=True)
    (bin_folder / "python").symlink_to(sys.executable)
    uv = bin_folder / "uv"
    uv.write_text(FAKE_UV)
    uv.chmod(0o755)
    return tmp_path


def ensure(project: Path, extras: str) -> str:
    """Source ensure-venv as ``scripts/bot`` ("") or ``scripts/test`` ("test") do; what it
    said on standard error."""
    done = subprocess.run(
        ["bash", "-c", f'source "{SCRIPT}" "{extras}"'],
        cwd=project,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHON": sys.executable},
    )
    return done.stderr


def installs(project: Path) -> list[str]:
    """What was installed, by target (``.`` or ``.[test]``), in order."""
    log = project / "installs.txt"
    lines = log.read_text().splitlines() if log.exists() else []
    return [line.split()[-1] for line in lines]


def test_switching_between_the_bot_and_the_tests_installs_nothing_more(project: Path) -> None:
    """The test extras are everything the bot needs and more: once they are in, running
    the bot installs nothing, and neither does running the tests again after it."""
    assert "(once)" in ensure(project, "")
    assert ensure(project, "") == ""
    assert "(once)" in ensure(project, "test")
    for extras in ("", "test", "", "test"):
        assert ensure(project, extras) == ""
    assert installs(project) == [".", ".[test]"]


def test_the_tests_first_then_the_bot_installs_once(project: Path) -> None:
    ensure(project, "test")
    ensure(project, "")
    assert installs(project) == [".[test]"]


def test_a_changed_pyproject_installs_again(project: Path) -> None:
    ensure(project, "test")
    (project / "pyproject.toml").write_text('[project]\nname = "referee"\nversion = "2"\n')
    assert "(once)" in ensure(project, "")
    assert "(once)" in ensure(project, "test")  # the bot's install had no test extras
    assert ensure(project, "") == ""
    assert installs(project) == [".[test]", ".", ".[test]"]
    stamps = sorted(path.name for path in (project / ".venv").glob(".installed-*"))
    assert len(stamps) == 1 and stamps[0].endswith("-test"), stamps


def test_a_failed_install_is_tried_again(project: Path) -> None:
    """Nothing is marked installed when the installer fails: the next run tries again."""
    uv = project / ".venv" / "bin" / "uv"
    uv.write_text(FAKE_UV + "exit 1\n")
    (project / ".venv" / "bin" / "python").unlink()
    (project / ".venv" / "bin" / "python").write_text("#!/bin/sh\nexit 1\n")
    (project / ".venv" / "bin" / "python").chmod(0o755)  # and pip cannot step in
    failed = subprocess.run(
        ["bash", "-c", f'source "{SCRIPT}" ""'],
        cwd=project,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHON": sys.executable},
    )
    assert failed.returncode == 1 and "installing the dependencies failed" in failed.stderr
    uv.write_text(FAKE_UV)
    assert "(once)" in ensure(project, "")
