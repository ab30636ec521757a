"""Replays: rebuilt from the log, a frame per change each audience saw, ending on the reveal."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from benchmarks.playouts import play_out
from bot.delivery.presenter import frame_renderer, names_of, present_replay
from bot.games import ENGINES
from bot.referee import Place, Referee, RefereeError
from bot.replays import TRUTH, Replay, moments, states_of
from bot.storage import SqliteRepository
from renderers import luzhanqi
from renderers import replay as animation
from tests.support.cog_helpers import KNOWN_FLEET

GAMES = [(key, variant) for key, engine in ENGINES.items() for variant in engine.presets]


def gif_frames(data: bytes) -> list[Image.Image]:
    """Every frame of a GIF, as the full picture a viewer sees at that moment."""
    frames = []
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "GIF"
        for index in range(image.n_frames):
            image.seek(index)
            frames.append(image.convert("RGB"))
    return frames


def shows(frame: Image.Image, board: Image.Image) -> bool:
    """Whether ``frame`` is ``board`` at its top left, padded with the board's background
    (frames grow to the largest board of the game, like a setup board with its legend)."""
    board = board.convert("RGB")
    padded = Image.new("RGB", frame.size, board.getpixel((0, 0)))
    padded.paste(board, (0, 0))
    return ImageChops.difference(frame.convert("RGB"), padded).getbbox() is None


@pytest.mark.parametrize(("key", "variant"), GAMES)
async def test_a_replay_has_a_frame_per_change_and_ends_on_the_final_view(
    referee: Referee, key: str, variant: str
) -> None:
    game = await play_out(referee, key, variant=variant, max_plies=24)
    engine = ENGINES[key]
    final = states_of(engine, game, await referee.repository.log(game.id))[-1]
    draw = frame_renderer(key, names_of(game))
    for word, audience in (("mine", 0), ("channel", None), ("truth", TRUTH)):
        asker = game.seats[0]
        recording = await referee.replay_of(game.id, asker, word)
        assert recording.audience == audience
        content, gif, moves = present_replay(recording)
        frames = gif_frames(gif.data)
        drawn = animation.draw_frames(draw, recording.moments)
        assert 1 < len(frames) == len(drawn) <= len(recording.moments)
        assert all(shows(*pair) for pair in zip(frames, drawn, strict=True))
        seats = (0, 1) if audience == TRUTH else (audience,)
        last = animation.frame([draw(engine.view(final, seat)) for seat in seats])
        assert shows(frames[-1], last)
        assert f"{len(frames)} frames" in content and gif.filename.endswith(".gif")
    log = await referee.repository.log(game.id)
    lines = moves.data.decode().splitlines()
    assert lines[2].split(": ", 1)[1] == log[0].text
    assert len(lines) == 2 + len(log)


async def test_a_seat_replay_does_not_depend_on_the_opponents_secrets(referee: Referee) -> None:
    """Two games alike but for the opponent's fleet (and how it was placed) replay the same
    for the other seat, frame for frame and byte for byte."""
    recordings: list[Replay] = []
    for opponent_setup in (["fleet " + ", ".join(KNOWN_FLEET)], ["random", "random"]):
        referee.work.seed_source = iter([7]).__next__
        challenge = await referee.challenge(
            game="seabattle",
            variant=None,
            guild_id=1,
            channel_id=2,
            challenger_id=1,
            opponent_id=2,
        )
        game = (await referee.accept(challenge.id, 2)).game
        await referee.act(1, f"#{game.id} fleet " + ", ".join(KNOWN_FLEET))
        for text in opponent_setup:
            await referee.act(2, f"#{game.id} {text}")
        await referee.act(1, f"#{game.id} ready")
        await referee.act(2, f"#{game.id} ready")
        await referee.resign(1, game.id)
        recordings.append(await referee.replay_of(game.id, 1, "mine"))
    first, second = recordings
    assert first.moments == second.moments  # resigned before a shot: nothing is revealed
    draw = frame_renderer("seabattle", ("", ""))
    replays = [animation.animate(animation.draw_frames(draw, r.moments)) for r in recordings]
    assert replays[0] == replays[1]
    assert [present_replay(r)[1].data for r in recordings] == replays


async def test_nobody_gets_a_replay_of_a_running_game(referee: Referee) -> None:
    challenge = await referee.challenge(
        game="seabattle", variant=None, guild_id=1, channel_id=2, challenger_id=1, opponent_id=2
    )
    game = (await referee.accept(challenge.id, 2)).game
    in_channel = Place(1, lambda channel_id: channel_id == 2)
    for asker, word in ((1, "mine"), (2, "channel"), (3, "truth")):
        with pytest.raises(RefereeError, match="still being played"):
            await referee.replay_of(game.id, asker, word, in_channel)
    await referee.resign(1, game.id)
    with pytest.raises(RefereeError, match="did not play in game"):
        await referee.replay_of(game.id, 3, "mine", in_channel)
    spectated = await referee.replay_of(game.id, 3, place=in_channel)
    assert spectated.audience is None  # a spectator's default
    with pytest.raises(RefereeError, match=f"^There is no game #{game.id}.$"):
        await referee.replay_of(game.id, 3)  # by DM: only the players
    with pytest.raises(RefereeError, match="There is no game #99"):
        await referee.replay_of(99, 1)


def test_a_seat_skips_moves_it_could_not_see() -> None:
    """The opponent's secret placements make no frame for the other seat."""
    engine = ENGINES["seabattle"]
    state = engine.new_game(engine.presets["classic"], 1)
    states = [state]
    for text in KNOWN_FLEET:
        state = engine.act(state, 1, text).state
        states.append(state)
    assert len(moments(engine, states, 0)) == 1
    assert len(moments(engine, states, 1)) == len(KNOWN_FLEET) + 1


async def test_a_replay_is_stored_nowhere_but_rebuilt_from_the_log(repo: SqliteRepository) -> None:
    referee = Referee(repo, seed_source=lambda: 5)
    game = await play_out(referee, "luzhanqi", variant="flip", max_plies=10)
    again = await play_out(
        Referee(repo, seed_source=lambda: 5),
        "luzhanqi",
        variant="flip",
        players=(3001, 3002),
        max_plies=10,
    )
    one = present_replay(await referee.replay_of(game.id, game.seats[0], "truth"))[1].data
    two = present_replay(await referee.replay_of(again.id, again.seats[0], "truth"))[1].data
    assert one == two


async def test_the_move_list_fills_in_each_setup_where_it_was_confirmed(referee: Referee) -> None:
    game = await play_out(referee, "seabattle", max_plies=12)
    engine = ENGINES["seabattle"]
    log = await referee.repository.log(game.id)
    states = states_of(engine, game, log)
    moves = (await referee.replay_of(game.id, game.seats[0], "truth")).moves
    for seat in (0, 1):
        ready = next(e.ply for e in log if e.seat == seat and e.text == "ready")
        fleet = engine.setup_text(engine.view(states[ready - 1], seat))
        assert fleet is not None and fleet.startswith("fleet ")
        assert f"{ready:>4}. {{seat{seat}}}: ready  [{fleet}]" in moves.splitlines()


async def test_a_game_ended_before_its_first_real_move_replays_nothing_hidden(
    referee: Referee,
) -> None:
    challenge = await referee.challenge(
        game="seabattle", variant=None, guild_id=1, channel_id=2, challenger_id=1, opponent_id=2
    )
    game = (await referee.accept(challenge.id, 2)).game
    await referee.act(1, f"#{game.id} random")
    await referee.act(2, f"#{game.id} random")
    await referee.abort(1, game.id)
    with pytest.raises(RefereeError, match="before its first real move"):
        await referee.replay_of(game.id, 1, "truth")
    mine = await referee.replay_of(game.id, 1, "mine")
    assert mine.moves == ""
    _, _, moves = present_replay(mine)
    assert moves is None  # the move list would show both fleets
    with pytest.raises(RefereeError, match="before its first real move"):
        await referee.export(game.id, 1)


@pytest.mark.parametrize("key", list(ENGINES))
async def test_a_300_ply_replay_stays_under_a_megabyte_for_every_audience(
    referee: Referee, key: str
) -> None:
    """The size budget (time is the benchmark's): a long game's replay, for a seat, the
    channel and both sides, fits in 1 MB. A random game is resigned at 300 plies."""
    game = await play_out(referee, key, max_plies=300)
    engine = ENGINES[key]
    states = states_of(engine, game, await referee.repository.log(game.id))
    draw = frame_renderer(key, names_of(game))
    for audience in (0, None, TRUTH):
        gif = animation.animate(animation.draw_frames(draw, moments(engine, states, audience)))
        assert len(gif) < 1024 * 1024, (audience, len(gif))


def ink_lines(image: Image.Image, index: int) -> tuple[int, ...]:
    """The heights of the runs of rows holding palette ``index``: one per line of text."""
    width, height = image.size
    pixels = image.load()
    assert pixels is not None
    inked = [any(pixels[x, y] == index for x in range(width)) for y in range(height)]
    runs: list[int] = []
    run = 0
    for row in [*inked, False]:
        if row:
            run += 1
        elif run:
            runs.append(run)
            run = 0
    return tuple(runs)


@pytest.mark.parametrize("replay", [False, True])
def test_luzhanqi_replay_labels_are_one_glyph_legible_on_a_phone(replay: bool) -> None:
    """Shown both sides at once and 360 px wide (a phone), a replay's Luzhanqi tokens must
    be readable: each carries one line, its glyph at least 8 px tall there. The names a
    player's own board shows (rank, Chinese and English) are a blur at that size."""
    engine = ENGINES["luzhanqi"]
    view = engine.view(engine.new_game(engine.presets["classic"], 3), 0)
    image = luzhanqi.render_image(view, ("", ""), replay=replay)
    truth_width = (2 * luzhanqi.WIDTH + animation.GAP) * animation.SCALES[2]
    on_phone = 360 / truth_width * animation.SCALES[2]
    half_w, half_h = luzhanqi.TOKEN[0] // 2, luzhanqi.TOKEN[1] // 2
    labels = set()
    for where, piece in enumerate(view.pieces):
        if piece is not None:
            x, y = luzhanqi.centre_of(where, view.bottom)
            token = image.crop((x - half_w, y - half_h, x + half_w, y + half_h))
            labels.add(ink_lines(token, luzhanqi.PALETTE["text"]))
    legible = all(len(lines) == 1 and lines[0] * on_phone >= 8 for lines in labels)
    assert legible == replay, sorted(labels)
