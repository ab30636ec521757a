"""The workers benchmark's processor share: each worker held to a part of one processor.

The control groups are files, so the files written are checked on a made-up tree of each
version everywhere; where this machine has the real thing (root, the cpu controller), a
real process is held and the kernel's own account of it read back.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from benchmarks.closed_loop import Load
from benchmarks.processor_share import (
    GROUP_PREFIX,
    PERIOD_MICROSECONDS,
    ProcessorShare,
    ShareUnavailable,
)
from benchmarks.worker_processes import with_workers
from tests.benchmarks.test_benchmarks import benchmark


def version_1_tree(root: Path) -> Path:
    cpu = root / "cpu"
    cpu.mkdir()
    (cpu / "cpu.cfs_quota_us").write_text("-1")
    return cpu


def version_2_tree(root: Path, controllers: str = "cpuset cpu io memory pids") -> Path:
    (root / "cgroup.controllers").write_text(controllers + "\n")
    (root / "cgroup.subtree_control").write_text("")
    return root


def test_a_version_1_group_gets_the_quota_and_the_process(tmp_path: Path) -> None:
    cpu = version_1_tree(tmp_path)
    share = ProcessorShare.open(0.4, v1_root=cpu, v2_root=tmp_path / "none")
    group = share.hold(4321)
    assert group == cpu / f"{GROUP_PREFIX}4321"
    assert (group / "cpu.cfs_period_us").read_text() == str(PERIOD_MICROSECONDS)
    assert (group / "cpu.cfs_quota_us").read_text() == str(40_000)
    assert (group / "cgroup.procs").read_text() == "4321"


def test_a_version_2_group_gets_the_quota_and_the_process(tmp_path: Path) -> None:
    root = version_2_tree(tmp_path)
    share = ProcessorShare.open(0.25, v1_root=tmp_path / "none", v2_root=root)
    group = share.hold(99)
    assert (group / "cpu.max").read_text() == f"25000 {PERIOD_MICROSECONDS}"
    assert (group / "cgroup.procs").read_text() == "99"
    assert (root / "cgroup.subtree_control").read_text() == "+cpu"  # its groups may use it


def test_a_machine_without_the_cpu_controller_is_told_what_is_needed(tmp_path: Path) -> None:
    root = version_2_tree(tmp_path, controllers="memory pids")
    with pytest.raises(ShareUnavailable, match="cpu controller"):
        ProcessorShare.open(0.4, v1_root=tmp_path / "none", v2_root=root)


@pytest.mark.parametrize("share", [0, -0.5, 1.5])
def test_a_share_that_is_no_part_of_a_processor_is_refused(share: float, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="above 0 and at most 1"):
        ProcessorShare.open(share, v1_root=version_1_tree(tmp_path))


def real_share(share: float) -> ProcessorShare:
    if os.geteuid() != 0:
        pytest.skip("control groups are made by root")
    try:
        return ProcessorShare.open(share)
    except ShareUnavailable as error:
        pytest.skip(str(error))


def test_a_real_process_is_held_in_its_group_and_the_group_goes_with_it() -> None:
    share = real_share(0.3)
    sleeper = subprocess.Popen(["sleep", "30"])
    try:
        group = share.hold(sleeper.pid)
        held_in = Path(f"/proc/{sleeper.pid}/cgroup").read_text()
        assert f"/{group.name}\n" in held_in
        quota = "cpu.cfs_quota_us" if share.version == 1 else "cpu.max"
        assert (group / quota).read_text().split()[0] == "30000"
    finally:
        sleeper.kill()
        sleeper.wait()
    share.close()
    assert not group.exists()


def test_the_workers_benchmark_holds_its_workers_to_the_share(postgres_server: str) -> None:
    real_share(0.5)
    finished = benchmark(
        "workers",
        *("--games", "2", "--moves", "12", "--workers", "1", "--worker-share", "0.5"),
        *("--database-url", postgres_server),
    )
    assert finished.returncode == 0, finished.stderr
    assert "each worker process held to 0.50 of one processor" in finished.stdout
    assert "PostgreSQL, 1 worker" in finished.stdout
    for left in ProcessorShare.open(0.5).root.glob(f"{GROUP_PREFIX}*"):  # another test's
        assert Path(f"/proc/{left.name.removeprefix(GROUP_PREFIX)}").exists()


def test_the_workers_benchmark_refuses_a_share_before_it_starts_anything() -> None:
    finished = benchmark("workers", "--worker-share", "2")
    assert finished.returncode == 2
    assert "a processor share is above 0 and at most 1, not 2" in finished.stderr
    assert "PostgreSQL" not in finished.stdout


class Refusing:
    """A share that cannot hold the processes it is given (a group it may not make)."""

    def __init__(self) -> None:
        self.asked: list[int] = []

    def hold(self, pid: int) -> Path:
        self.asked.append(pid)
        raise ShareUnavailable("cannot make a control group here: run as root")

    def close(self) -> None:
        pass


async def test_no_worker_is_left_running_when_one_cannot_be_held(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    refusing = Refusing()
    monkeypatch.setattr(ProcessorShare, "open", lambda share: refusing)
    load = Load(games=1, moves=2, worker_share=0.5)
    with pytest.raises(ShareUnavailable):
        await with_workers(postgres_url, 2, load)
    assert len(refusing.asked) == 1  # the second worker was never started
    assert not Path(f"/proc/{refusing.asked[0]}").exists()  # the first one ended, and reaped
