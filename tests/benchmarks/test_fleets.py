"""The fleet-by-fleet Sea Battle benchmark: runs split across processes add up, and two
runs over the same seeded fleets are compared fleet by fleet.

Nothing here measures speed; the think times written are only read back.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from benchmarks.ai_seabattle import shots_to_sink
from benchmarks.ai_seabattle_fleets import paired, read, run, summary
from bot.games.seabattle.fleet import random_fleet
from bot.games.seabattle.rules import PRESETS


def test_two_runs_over_different_fleets_add_up_to_one_run(tmp_path: Path) -> None:
    first, second = tmp_path / "first.tsv", tmp_path / "second.tsv"
    run("milton-bradley", 0, 2, "uniform", first)
    run("milton-bradley", 2, 1, "uniform", second)
    fleets = read([first, second])
    assert sorted(fleets) == [0, 1, 2]
    rules = PRESETS["milton-bradley"]
    for seed, (shots, think) in fleets.items():
        fleet = random_fleet(rules, random.Random(f"fleet:milton-bradley:{seed}"))
        assert shots == shots_to_sink(rules, fleet, seed, []), "the benchmark's own fleet"
        assert len(think) == shots, "one think time per shot"
    assert summary([first, second]).startswith("3 fleets: mean ")


def write(path: Path, shots: dict[int, int]) -> Path:
    path.write_text("".join(f"{seed}\t{count}\t1000,2000\n" for seed, count in shots.items()))
    return path


def test_a_pairing_compares_only_the_fleets_both_runs_sank(tmp_path: Path) -> None:
    before = write(tmp_path / "before.tsv", {0: 40, 1: 50, 2: 45, 7: 99})
    after = write(tmp_path / "after.tsv", {0: 38, 1: 49, 2: 45, 8: 10})
    line = paired(before, after)
    # Fleets 0-2 only: 45.00 then 44.00, gains 2, 1, 0 (mean 1, standard error 1/sqrt(3)).
    assert line.startswith("3 fleets in both: 45.00 then 44.00 shots, fewer by 1.00 ± 0.58")


def test_the_summary_reads_think_times_in_microseconds(tmp_path: Path) -> None:
    runs = write(tmp_path / "runs.tsv", {seed: 40 + seed for seed in range(4)})
    line = summary([runs])
    assert line.startswith("4 fleets: mean 41.50 ± 0.65 shots, p50 42")
    assert line.endswith("think p95 2.00 ms, max 2.00 ms")


@pytest.mark.parametrize("count", [0, 1])
def test_too_few_common_fleets_are_not_compared(tmp_path: Path, count: int) -> None:
    before = write(tmp_path / "before.tsv", {seed: 40 for seed in range(count)})
    after = write(tmp_path / "after.tsv", {seed: 41 for seed in range(count)})
    assert paired(before, after) == f"{count} fleets in both runs: too few to compare"
