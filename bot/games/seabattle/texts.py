"""What players read about a Sea Battle game's rules: ``/rules`` and the setup prompt.

One sentence per optional module, next to the others, so the summary of any combination
of modules (§4.9) reads as one text.
"""

from __future__ import annotations

from bot.games.grid import cell_name
from bot.games.seabattle.fleet import describe_kinds
from bot.games.seabattle.rules import SeaBattleRules, Touching
from bot.games.words import with_article


def describe(rules: SeaBattleRules, variant: str) -> str:
    """The rules summary and move notation for ``/rules``."""
    last = cell_name((rules.size - 1, rules.size - 1))
    field = with_article(f"{rules.size}×{rules.size} field")
    if rules.dutchman:
        decks = rules.fleet[0].length
        return (
            f"**Sea Battle ({variant})**: the Flying Dutchman, on {field}, "
            f"A1 top left to {last} bottom right. Each player has one ship of {decks} "
            "decks, its cells joined through sides or corners (it may run across, down and "
            "diagonally at once).\n"
            f"**Setup** (by DM, in secret): {_listed(setup_words(rules), '; ')}.\n"
            "**Play**: name a cell to shoot, like `B5`; any cell, even one shot before, since "
            "the ship moves. A miss passes the turn. A hit destroys the deck there; its "
            "captain may then move the remaining decks in secret (`move` and their new cells, "
            "joined by sides or corners) or leave them (`stay`), and the shooter shoots again, "
            "never told which. The last deck hit sinks the ship and wins. Each side sees how "
            "many decks the other has lost."
        )
    spacing = {
        Touching.NONE: "Ships may not touch, not even at a corner.",
        Touching.CORNERS: "Ships may touch at corners, never along a side.",
        Touching.ANY: "Ships may touch; they may not overlap.",
    }[rules.touching]
    modules = " ".join(module_sentences(rules))
    return (
        f"**Sea Battle ({variant})**: {field}, "
        f"A1 top left to {last} bottom right. Fleet: {describe_kinds(rules.fleet)}; "
        f"{shape_sentence(rules)} {spacing}\n"
        f"**Setup** (by DM, in secret): {_listed(setup_words(rules), '; ')}. "
        "`save <name>` keeps your fleet for later games and `load <name>` lays it out again.\n"
        f"**Play**: {play_sentence(rules)} The first to sink the whole enemy fleet wins. "
        f"{modules}{' ' if modules else ''}"
        "With several games running, pick one with `#<id> B5`."
    )


def setup_words(rules: SeaBattleRules) -> list[tuple[str, str]]:
    """Every kind of setup move ``rules`` take, each as an example and what it does:
    the one source of every setup help, so no help offers a move the variant refuses."""
    if rules.dutchman:
        return [
            ("random", "deals a legal ship"),
            (dutchman_example(rules.fleet[0].length), "places the ship by all its cells"),
            ("clear", "empties the board"),
            ("ready", "confirms"),
        ]
    words = [("random", "deals a legal fleet")]
    hulls = [kind.length for i, kind in enumerate(rules.fleet) if i != rules.submarine_kind]
    longest = max(hulls, default=1)
    if longest > 1:
        words.append((f"A1 {cell_name((0, longest - 1))}", "places a ship between two end cells"))
    if 1 in hulls:
        words.append((single_example(rules), "places a one-cell ship"))
    if rules.shapes:
        words.append(("A1 A2 B2", "places a shaped ship by all its cells"))
    if rules.mines:
        words.append(("mine C5", "lays a mine"))
    if rules.sweepers:
        words.append(("sweeper D7", "lays a minesweeper"))
    if rules.submarine:
        words.append((f"sub {single_example(rules)}", "places the submarine"))
    words += [
        ("remove A1", "takes back the piece on A1"),
        ("clear", "empties the board"),
        ("ready", "confirms"),
    ]
    return words


def single_example(rules: SeaBattleRules) -> str:
    """A one-cell placement: the bottom right corner, as far from the other examples."""
    return cell_name((rules.size - 1, rules.size - 1))


def _listed(words: list[tuple[str, str]], between: str) -> str:
    return between.join(f"`{example}` {what}" for example, what in words)


def setup_help(rules: SeaBattleRules) -> str:
    """What a setup move that cannot be read is answered with."""
    return f"During setup: {_listed(setup_words(rules), ', ')}."


def shape_sentence(rules: SeaBattleRules) -> str:
    if rules.shapes:
        return (
            "each ship a straight line, except that a three-decker may be an L and the "
            "four-decker an L, a 2×2 square or a zigzag, turned or mirrored any way (never a T)."
        )
    return "each ship a straight line."


def play_sentence(rules: SeaBattleRules) -> str:
    if rules.salvo:
        return (
            "each turn fire a salvo: name as many cells as you have ships afloat, all in one "
            f"move, like `{salvo_example(len(rules.fleet))}`; every cell is answered, and the "
            "turn passes."
        )
    if rules.extra_shot:
        return (
            "name a cell to shoot, like `B5`. A hit or a sinking earns another shot; a miss "
            "passes the turn."
        )
    return "name a cell to shoot, like `B5`. Players take one shot each in turn."


def module_sentences(rules: SeaBattleRules) -> list[str]:
    """One sentence for each optional module the rules turn on."""
    sentences = []
    if rules.mines:
        touch = (
            "they may touch ships and each other"
            if rules.free_mines
            else "they touch no ship and no other mine or minesweeper"
        )
        sweepers = (
            f" and {rules.sweepers} minesweeper{'s' if rules.sweepers != 1 else ''}"
            if rules.sweepers
            else ""
        )
        sentences.append(
            f"Mines: each player lays {rules.mines} mine{'s' if rules.mines != 1 else ''}"
            f"{sweepers} ({'`mine C5`, `sweeper D7`' if rules.sweepers else '`mine C5`'}); "
            f"{touch}. A shot on a mine is answered “mine”: the shooter discloses one of their "
            "own ship cells to the mine's owner (`reveal` and the cell; one not disclosed "
            "before, if any), and the turn passes to the owner."
        )
    if rules.sweepers:
        sentences.append(
            "A shot on a minesweeper makes the shooter disclose one of their own mines to its "
            "owner, and the turn passes; a disclosed mine may still be shot, as `B5 confirm`."
        )
    if rules.submarine:
        sentences.append(
            "Submarine: each fleet adds a one-cell submarine (`sub J10`), which may touch its "
            "own ships. Sunk, it fires a dying shot at the same cell of the shooter's own "
            "field; if that sinks the shooter's last ship as the submarine was its owner's "
            "last, the game is a draw. Sunk ships mark no cells around them."
        )
    if rules.named_hits:
        sentences.append("Named hits: every hit names the ship it struck.")
    if rules.equal_rounds:
        sentences.append(
            "Equal rounds: if the first player sinks the fleet, the second fires one last "
            "salvo; sinking the fleet with it makes a draw."
        )
    if rules.blind_report:
        sentences.append(
            "Blind report: a salvo is answered only with how many hits each ship took, "
            "never which cells hit; your board numbers each shot by its salvo."
        )
    return sentences


def first_shot_prompt(rules: SeaBattleRules, salvo_size: int) -> str:
    """What the first shooter is told when both fleets are set."""
    if rules.salvo:
        return f"fire a salvo of {salvo_size} cells, like `{salvo_example(salvo_size)}`"
    return "name a cell, like `B5`"


def salvo_example(cells: int) -> str:
    """A salvo of ``cells`` cells, down the diagonal from A1."""
    return " ".join(cell_name((i, i)) for i in range(cells))


def dutchman_example(decks: int) -> str:
    return " ".join(cell_name((i, i // 2)) for i in range(decks))


def setup_instructions(rules: SeaBattleRules) -> str:
    if rules.dutchman:
        decks = rules.fleet[0].length
        return (
            f"Set up your Flying Dutchman in secret: one ship of {decks} cells joined by sides "
            "or corners. Press **Random fleet** (or write `random`), or name all its cells, "
            f"like `{dutchman_example(decks)}`. Write `ready` when it is placed. `/rules` has "
            "the full rules."
        )
    words = [
        (example, what)
        for example, what in setup_words(rules)
        if example not in ("random", "clear", "ready")
    ]
    return (
        f"Set up your fleet in secret: {describe_kinds(rules.fleet)}"
        + (f", {rules.mines} mine{'s' if rules.mines != 1 else ''}" if rules.mines else "")
        + (f" and {rules.sweepers} minesweeper" if rules.sweepers else "")
        + ". Press **Random fleet** (or write `random`) for a legal fleet, or place the "
        f"pieces one by one: {_listed(words, ', ')}. Write `ready` when it is complete. "
        "`/rules` has the full rules."
    )
