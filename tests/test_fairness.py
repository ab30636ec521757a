"""Provable fairness: seals when play begins, opened at the end, checked by the verifier."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from benchmarks.playouts import play_out
from bot.fairness import OPENED, SEALED, digest, kept_apart
from bot.games import ENGINES
from bot.referee import Referee, RefereeError
from bot.verify import main, verify

GAMES = [(key, variant) for key, engine in ENGINES.items() for variant in engine.presets]


async def exported(referee: Referee, key: str, variant: str | None = None) -> dict[str, Any]:
    game = await play_out(referee, key, variant=variant, max_plies=16)
    return await referee.export(game.id, game.seats[0])


@pytest.mark.parametrize(("key", "variant"), GAMES)
async def test_the_verifier_accepts_every_exported_game(
    referee: Referee, key: str, variant: str
) -> None:
    record = json.loads(json.dumps(await exported(referee, key, variant)))  # as a file holds it
    problems, checked = verify(record)
    assert problems == []
    assert checked == len(record["announcements"]) > 2
    assert {s["who"] for s in record["seals"]["entries"]} == {"seat0", "seat1", "seats", "seed"}


async def test_seals_are_told_to_everyone_when_play_begins_and_opened_at_the_end(
    referee: Referee,
) -> None:
    record = await exported(referee, "seabattle")
    sealed_at = record["seals"]["ply"]
    entries = record["seals"]["entries"]
    by_ply = {
        a["ply"]: dict((aud, texts) for aud, texts in a["tidings"]) for a in record["announcements"]
    }
    told = by_ply[sealed_at]
    assert set(told) == {0, 1, None}
    for texts in told.values():
        assert all(s["digest"] in "\n".join(texts) for s in entries)
    # before the end, no salt and no secret was in any announcement
    last = max(by_ply)
    for ply, told_then in by_ply.items():
        for audience, texts in told_then.items():
            for seal in entries:
                opened = ply == last and audience is None
                assert (seal["salt"] in "\n".join(texts)) == opened
                if seal["who"] != "seed":  # a seed is a short number, found in any text
                    assert seal["secret"] not in "\n".join(texts)
    # play began with the ply that readied the second fleet: both were locked in
    readies = [a for a in record["actions"] if a["text"] == "ready"]
    assert sealed_at == readies[-1]["ply"]


async def test_the_verifier_rejects_an_altered_announcement_setup_or_salt(
    referee: Referee,
) -> None:
    record = await exported(referee, "warships")

    altered = copy.deepcopy(record)
    _, texts = altered["announcements"][-2]["tidings"][0]
    texts[0] = texts[0] + " (and a cruiser at D4)"
    assert verify(altered)[0]

    altered = copy.deepcopy(record)
    seat0 = next(s for s in altered["seals"]["entries"] if s["who"] == "seat0")
    seat0["secret"] = seat0["secret"].replace("A", "B", 1)
    assert any("does not match" in p for p in verify(altered)[0])
    seat0["digest"] = digest(seat0["salt"], seat0["secret"])  # a consistent false seal
    assert any("not what the game held" in p for p in verify(altered)[0])

    altered = copy.deepcopy(record)
    altered["seals"]["entries"][2]["salt"] = "0" * 32
    assert any("does not match" in p for p in verify(altered)[0])

    altered = copy.deepcopy(record)
    altered["actions"][-2]["text"] = "pass"
    assert verify(altered)[0]


async def test_export_is_refused_for_a_running_game(referee: Referee) -> None:
    challenge = await referee.challenge(
        game="seabattle", variant=None, guild_id=1, channel_id=2, challenger_id=1, opponent_id=2
    )
    game = (await referee.accept(challenge.id, 2)).game
    with pytest.raises(RefereeError, match="still being played"):
        await referee.export(game.id, 1)


async def test_the_command_line_verifier(
    referee: Referee, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = await exported(referee, "luzhanqi", "flip")
    good = tmp_path / "game.json"
    good.write_text(json.dumps(record))
    assert main([str(good)]) == 0
    assert "verified" in capsys.readouterr().out
    record["seed"] += 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    assert main([str(bad)]) == 1
    assert "NOT VERIFIED" in capsys.readouterr().err


def test_the_verifier_needs_only_the_standard_library_and_the_engines() -> None:
    code = (
        "import sys, bot.verify; "
        "print(sorted({m.split('.')[0] for m in sys.modules}"
        " & {'discord', 'aiosqlite', 'PIL', 'openskill'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


async def test_an_unplayed_flip_game_keeps_its_seals_shut(referee: Referee) -> None:
    """The flip game is sealed as it begins; ended before the first flip, its seed (the
    whole face-down deal) must stay hidden, so the salts are not published."""
    challenge = await referee.challenge(
        game="luzhanqi", variant="flip", guild_id=1, channel_id=2, challenger_id=1, opponent_id=2
    )
    begun = await referee.accept(challenge.id, 2)
    assert any("Sealed before play" in t for n in begun.notices for t in n.texts)
    ended = await referee.abort(1, begun.game.id)
    assert not any("Seals opened" in t for n in ended.notices for t in n.texts)


def test_the_channels_kept_texts_keep_their_places_as_its_merged_notices_grow() -> None:
    """A channel batch's seals are posted under their place among its texts: a retry of
    the batch, grown by the notices stored meanwhile, must give each the same place."""
    sealed, opened = f"{SEALED}: `abc`.", f"{OPENED}: salts `def`."
    begun = (("Both fleets are set.", sealed, "{seat0} to move."),)
    assert kept_apart(begun) == ([], [(1, sealed)])
    grown = (*begun, ("{seat0} fires at A1: miss.",), ("{seat1} resigns.", opened))
    assert kept_apart(grown) == ([(1, sealed)], [(5, opened)])
