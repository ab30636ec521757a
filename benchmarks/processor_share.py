"""Each worker process of a benchmark held to a share of one processor, apart from the rest.

On this 2-core machine the workers share both processors with PostgreSQL and the process
that queues the moves, so a second worker finds only what the first and the database left
free (``benchmarks.parallel`` and the workers benchmark's ceiling line say how little).
A deployment gives its workers processors of their own, apart from the database's. Held
each to a share of one processor (a Linux control group with a processor quota), the
workers here model that, scaled down to fit: two workers at 0.4 take 0.8 of a processor
and leave the rest to the database, so the ratio of two to one measures what a second
worker itself costs the bot (its claims, the moves whose decoded state it has not seen
before, its wake-ups), not how little processor the machine had left for it.

Needs Linux, root, and the processor controller of control groups: version 1 mounted at
``/sys/fs/cgroup/cpu``, or version 2 at ``/sys/fs/cgroup`` with ``cpu`` among its
controllers. A share cannot be had elsewhere; ``ProcessorShare.open`` says why.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

PERIOD_MICROSECONDS = 100_000
"""The quota's period: a held process runs at most ``share`` of every tenth of a second."""

GROUP_PREFIX = "referee-benchmark-"
"""The control groups this module makes, one per process, named by its pid."""

V1_ROOT = Path("/sys/fs/cgroup/cpu")
V2_ROOT = Path("/sys/fs/cgroup")


class ShareUnavailable(RuntimeError):
    """This machine cannot hold a process to a processor share."""


def check(share: float) -> None:
    """Refuse a share that is no part of one processor."""
    if not 0 < share <= 1:
        raise ValueError(f"a processor share is above 0 and at most 1, not {share:g}")


class ProcessorShare:
    """Holds processes each to ``share`` of one processor, one control group apiece."""

    def __init__(self, share: float, root: Path, version: int) -> None:
        self.share = share
        self.root = root
        self.version = version
        self.groups: list[Path] = []

    @classmethod
    def open(cls, share: float, v1_root: Path = V1_ROOT, v2_root: Path = V2_ROOT) -> ProcessorShare:
        """The share on this machine's control groups, version 1 first; a share that is no
        part of a processor is refused before the machine is looked at."""
        check(share)
        controllers = v2_root / "cgroup.controllers"
        if (v1_root / "cpu.cfs_quota_us").exists():
            found = cls(share, v1_root, 1)
        elif controllers.exists() and "cpu" in controllers.read_text().split():
            with contextlib.suppress(OSError):  # the groups below it may use the controller
                (v2_root / "cgroup.subtree_control").write_text("+cpu")
            found = cls(share, v2_root, 2)
        else:
            raise ShareUnavailable(
                "holding a worker to a processor share needs Linux control groups with the "
                f"cpu controller ({v1_root} or {v2_root}), and root"
            )
        if not os.access(found.root, os.W_OK):
            raise ShareUnavailable(f"cannot make a control group in {found.root}: run as root")
        return found

    @property
    def quota(self) -> int:
        """Microseconds a held process may run in each period."""
        return round(self.share * PERIOD_MICROSECONDS)

    def hold(self, pid: int) -> Path:
        """Move process ``pid`` into a control group of its own, held to the share."""
        group = self.root / f"{GROUP_PREFIX}{pid}"
        try:
            group.mkdir(exist_ok=True)
            self.groups.append(group)
            if self.version == 1:
                (group / "cpu.cfs_period_us").write_text(str(PERIOD_MICROSECONDS))
                (group / "cpu.cfs_quota_us").write_text(str(self.quota))
            else:
                (group / "cpu.max").write_text(f"{self.quota} {PERIOD_MICROSECONDS}")
            (group / "cgroup.procs").write_text(str(pid))
        except PermissionError as error:
            message = f"cannot make a control group here ({error}): run as root"
            raise ShareUnavailable(message) from None
        return group

    def close(self) -> None:
        """Remove the groups (once their processes have ended: the kernel refuses a group
        that still holds one, and then it is left for the machine's next start)."""
        for group in self.groups:
            with contextlib.suppress(OSError):
                group.rmdir()
        self.groups.clear()
