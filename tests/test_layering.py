"""The import rules of the layers (design.md, "Layers"), checked on the source with ``ast``.

The rule engines stay pure so that they can be tested exhaustively and reused; the
renderers see only views; the referee and storage never depend on Discord, so they can be
tested without it. None of this survives by good intentions alone: an innocent import in
the wrong place quietly breaks it. This test reads every module's imports (absolute,
relative, ``from x import y``, and literal ``importlib.import_module`` calls) without
importing anything, and names the file, line and import that break a rule.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "cogs", "renderers")
DISCORD_ALLOWED = {
    "bot/client.py",
    "bot/__main__.py",
    "bot/delivery/discord_sender.py",
    "bot/delivery/discord_answers.py",
    "bot/delivery/discord_replies.py",
}
"""The only modules of ``bot/`` that may talk to discord.py: two wire the process up, and
the delivery wing's sender is where every message leaves for Discord (the deliverer and
the presenter beside it stay free of discord.py)."""
IMPURE_STDLIB = {"asyncio", "sqlite3"}
"""Standard-library modules the engines must still avoid: no event loop, no database."""
BELOW_STORAGE = ("bot.storage", "bot.games", "bot.ratings", "bot.fairness")
"""What ``bot/storage`` may import of the project: itself and the pure modules beneath it
(the rules' outcomes, the rating arithmetic, the seals). Nothing above it, so the store can
be tested, copied and swapped without the referee, the delivery or Discord."""


@dataclass(frozen=True)
class Import:
    line: int
    statement: str
    """The import as written, for the failure message."""
    target: str
    """The absolute dotted name it brings in, e.g. ``bot.games.core.Engine``."""


def module_name(relative: str) -> tuple[str, bool]:
    """The dotted module name of a source path, and whether the module is a package."""
    parts = list(Path(relative).with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts.pop()
    return ".".join(parts), is_package


def resolve(package: str, level: int, module: str | None) -> str:
    """An absolute name for ``from <level dots><module> import ...`` inside ``package``."""
    parts = package.split(".") if package else []
    if level - 1 > len(parts) - 1:
        return "<relative import beyond the top-level package>"
    base = parts[: len(parts) - (level - 1)]
    return ".".join([*base, module] if module else base)


def imports_in(source: str, relative: str) -> list[Import]:
    """Every import a module makes, with relative names made absolute."""
    name, is_package = module_name(relative)
    package = name if is_package else name.rpartition(".")[0]
    found: list[Import] = []
    for node in ast.walk(ast.parse(source, filename=relative)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append(Import(node.lineno, ast.unparse(node), alias.name))
        elif isinstance(node, ast.ImportFrom):
            base = resolve(package, node.level, node.module) if node.level else node.module or ""
            for alias in node.names:
                target = base if alias.name == "*" else f"{base}.{alias.name}"
                found.append(Import(node.lineno, ast.unparse(node), target))
        elif isinstance(node, ast.Call) and _is_dynamic_import(node.func):
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.append(Import(node.lineno, ast.unparse(node), first.value))
    return found


def _is_dynamic_import(func: ast.expr) -> bool:
    if isinstance(func, ast.Name):
        return func.id in {"__import__", "import_module"}
    return isinstance(func, ast.Attribute) and func.attr == "import_module"


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def is_stdlib(name: str) -> bool:
    return name.split(".")[0] in sys.stdlib_module_names


def violation(relative: str, target: str) -> str | None:
    """Why ``relative`` may not import ``target``, or None when the import is allowed."""
    if target.startswith("<"):
        return "this relative import leaves the top-level package and cannot work"
    if relative.startswith("cogs/"):
        return None
    if relative.startswith("bot/games/"):
        if within(target, "bot.games"):
            return None
        if target.split(".")[0] in IMPURE_STDLIB:
            return "the engines are pure: no asyncio, no sqlite"
        if is_stdlib(target):
            return None
        return "bot/games imports only the standard library and bot.games"
    if relative.startswith("bot/ai/"):
        if within(target, "bot.games") or within(target, "bot.ai"):
            return None
        if target.split(".")[0] in IMPURE_STDLIB:
            return "computer players are pure: no asyncio, no sqlite (the referee runs them)"
        if is_stdlib(target):
            return None
        return "bot/ai imports only the standard library, bot.games and bot.ai"
    if relative.startswith("renderers/"):
        allowed = ("renderers", "bot.games", "PIL", "isal", "xxhash")
        if is_stdlib(target) or any(within(target, package) for package in allowed):
            return None
        return (
            "renderers import only the standard library, PIL, isal, xxhash, renderers and bot.games"
        )
    if relative.startswith("bot/storage/"):
        first = target.split(".")[0]
        if first in {"bot", "cogs", "renderers"} and not any(
            within(target, package) for package in BELOW_STORAGE
        ):
            return (
                "bot.storage imports nothing above it: only bot.storage, bot.games,"
                " bot.ratings and bot.fairness of the project"
            )
    if relative.startswith("bot/"):
        if within(target, "cogs"):
            return "bot/ never imports cogs: the Discord glue depends on bot, not the reverse"
        if within(target, "discord") and relative not in DISCORD_ALLOWED:
            return (
                "only bot/client.py, bot/__main__.py and bot/delivery/discord_sender.py"
                " may import discord"
            )
        return None
    raise AssertionError(f"{relative} is in no layer")


def violations(source: str, relative: str) -> list[str]:
    """Every broken rule in one module, as ``file:line: `import` brings in X (rule)``."""
    return [
        f"{relative}:{found.line}: `{found.statement}` brings in {found.target} ({reason})"
        for found in imports_in(source, relative)
        if (reason := violation(relative, found.target)) is not None
    ]


def sources() -> list[str]:
    return sorted(
        path.relative_to(ROOT).as_posix()
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
    )


SOURCES = sources()


def test_every_layer_has_sources() -> None:
    """A checker that finds no files passes vacuously; make sure it sees the real tree."""
    for expected in (
        "bot/games/core.py",
        "bot/referee/__init__.py",
        "bot/referee/unit_of_work.py",
        "bot/client.py",
        "cogs/moves.py",
    ):
        assert expected in SOURCES
    assert any(path.startswith("renderers/") for path in SOURCES)
    assert any(path.startswith("bot/games/seabattle/") for path in SOURCES)
    assert any(path.startswith("bot/ai/") for path in SOURCES)


@pytest.mark.parametrize("relative", SOURCES)
def test_imports_follow_the_layers(relative: str) -> None:
    found = violations((ROOT / relative).read_text(encoding="utf-8"), relative)
    assert not found, "layering broken:\n" + "\n".join(found)


PLANTED = [
    ("bot/games/core.py", "import discord", "brings in discord (bot/games"),
    ("bot/games/seabattle/engine.py", "from PIL import Image", "brings in PIL.Image"),
    ("bot/games/seabattle/engine.py", "import asyncio", "no asyncio"),
    ("bot/games/seabattle/state.py", "import sqlite3", "no sqlite"),
    ("bot/games/seabattle/state.py", "import aiosqlite", "brings in aiosqlite"),
    ("bot/games/seabattle/engine.py", "from ... import storage", "brings in bot.storage"),
    ("bot/games/seabattle/engine.py", "from ...referee import Referee", "bot.referee.Referee"),
    ("bot/games/core.py", "from bot import referee", "brings in bot.referee"),
    ("bot/games/core.py", "import renderers.common", "brings in renderers.common"),
    ("bot/games/core.py", "from cogs.moves import x", "brings in cogs.moves.x"),
    ("bot/games/grid.py", "def f():\n    import discord.ext\n", "brings in discord.ext"),
    ("bot/games/grid.py", "importlib.import_module('discord')", "brings in discord"),
    ("renderers/seabattle.py", "from bot.referee import Notice", "bot.referee.Notice"),
    ("renderers/seabattle.py", "from bot.storage import *", "brings in bot.storage"),
    ("renderers/common.py", "import discord", "renderers import only"),
    ("renderers/common.py", "from ..cogs import discord_sender", "<relative import beyond"),
    ("bot/referee.py", "from cogs.discord_sender import DiscordSender", "never imports cogs"),
    ("bot/referee.py", "from ..cogs import moves", "<relative import beyond"),
    ("bot/referee/moves.py", "import discord", "only bot/client.py"),
    ("bot/referee/table.py", "from cogs import moves", "never imports cogs"),
    ("bot/storage/sqlite.py", "import discord", "only bot/client.py"),
    ("bot/delivery/presenter.py", "from discord.ext import commands", "discord.ext.commands"),
    ("bot/delivery/deliverer.py", "import discord", "only bot/client.py"),
    ("bot/delivery/discord_sender.py", "from cogs.buttons import BUTTONS", "never imports cogs"),
    ("bot/client.py", "import cogs.moves", "never imports cogs"),
    ("bot/ai/seabattle.py", "from bot.referee import Referee", "bot/ai imports only"),
    ("bot/ai/seabattle.py", "from bot.storage import GameRecord", "bot/ai imports only"),
    ("bot/ai/core.py", "import asyncio", "computer players are pure"),
    ("bot/ai/core.py", "from renderers import seabattle", "bot/ai imports only"),
    ("bot/__main__.py", "from cogs import info", "never imports cogs"),
    ("bot/storage/sqlite.py", "from bot.referee import Referee", "imports nothing above it"),
    ("bot/storage/outbox.py", "from bot import deliverer", "imports nothing above it"),
    ("bot/storage/postgres.py", "from ..presenter import x", "imports nothing above it"),
    ("bot/storage/results.py", "import cogs.records", "imports nothing above it"),
    ("bot/storage/records.py", "from renderers import common", "imports nothing above it"),
    ("bot/storage/queries.py", "from bot.computer import x", "imports nothing above it"),
    ("bot/games/seabattle/engine.py", "from bot.catalog import GAMES", "bot.catalog.GAMES"),
    ("bot/ai/core.py", "from bot.catalog import player", "bot/ai imports only"),
    ("renderers/seabattle.py", "from bot.catalog import entry", "renderers import only"),
]
"""Planted violations, each with a part of the message the checker must print."""

ALLOWED = [
    ("bot/games/core.py", "from __future__ import annotations\nimport random, re, json"),
    ("bot/games/seabattle/engine.py", "from . import actions\nfrom ..grid import Cell"),
    ("bot/games/seabattle/__init__.py", "from .engine import SeaBattle\nfrom .. import core"),
    ("bot/games/__init__.py", "from bot.games.seabattle import SeaBattle"),
    ("renderers/seabattle.py", "from PIL import Image\nfrom .common import x\nimport io"),
    ("renderers/seabattle.py", "from bot.games.seabattle.view import Mark\nimport asyncio"),
    ("bot/client.py", "import discord\nfrom discord.ext import commands"),
    ("bot/__main__.py", "import discord"),
    ("bot/referee.py", "import asyncio\nfrom bot.games import ENGINES\nimport aiosqlite"),
    ("bot/delivery/presenter.py", "from renderers import seabattle"),
    ("bot/delivery/discord_sender.py", "import discord\nfrom bot.delivery.presenter import title"),
    ("bot/referee/moves.py", "from .table import RefereeBase\nfrom bot.storage import LogKind"),
    ("bot/ai/seabattle.py", "from bot.games.seabattle.view import Mark\nfrom . import core"),
    ("bot/computer.py", "import asyncio\nfrom bot.catalog import player"),
    ("bot/catalog/seabattle.py", "from bot.ai.seabattle import X\nfrom renderers import seabattle"),
    (
        "cogs/moves.py",
        "import discord\nfrom bot.referee import Report\nfrom . import discord_sender",
    ),
    ("bot/storage/sqlite.py", "import aiosqlite\nfrom bot.games.core import EndReason"),
    ("bot/storage/results.py", "from bot.ratings import rate\nfrom .records import AudienceTexts"),
    ("bot/storage/interface.py", "from bot.fairness import Seal\nfrom . import outbox"),
]
"""Imports the rules allow, so the checker is not simply refusing everything."""


@pytest.mark.parametrize(("relative", "source", "message"), PLANTED)
def test_the_checker_catches_a_planted_violation(relative: str, source: str, message: str) -> None:
    found = violations(source, relative)
    assert len(found) == 1, found
    assert found[0].startswith(f"{relative}:"), "the message must name the file"
    assert message in found[0], found[0]


@pytest.mark.parametrize(("relative", "source"), ALLOWED)
def test_the_checker_allows_what_the_rules_allow(relative: str, source: str) -> None:
    assert violations(source, relative) == []


def test_relative_imports_resolve_against_the_package() -> None:
    """``from . import x`` means the package itself in ``__init__`` but the parent elsewhere."""
    assert [i.target for i in imports_in("from . import a", "bot/games/__init__.py")] == [
        "bot.games.a"
    ]
    assert [i.target for i in imports_in("from . import a", "bot/games/core.py")] == ["bot.games.a"]
    assert [i.target for i in imports_in("from .. import a", "bot/games/core.py")] == ["bot.a"]
    assert [i.target for i in imports_in("from .x import a", "bot/games/seabattle/v.py")] == [
        "bot.games.seabattle.x.a"
    ]


def module_of(target: str, modules: set[str]) -> str | None:
    """The project module an import brings in (``bot.storage.records.GameRecord`` is
    ``bot.storage.records``), or None for the standard library and other libraries."""
    name = target
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def import_graph(sources: dict[str, str]) -> dict[str, set[str]]:
    """Which project modules each module imports, from ``{relative path: source}``.

    Every import counts, those made only for type hints or inside a function included: a
    circle any of them closes still ties the modules into one. Importing a submodule does
    not count as importing its package, which Python runs first but which imports back
    nothing of its own submodule's (a package's ``__init__`` may re-export its modules)."""
    names = {module_name(relative)[0]: relative for relative in sources}
    graph: dict[str, set[str]] = {name: set() for name in names}
    for name, relative in names.items():
        for found in imports_in(sources[relative], relative):
            imported = module_of(found.target, set(names))
            if imported is not None and imported != name:
                graph[name].add(imported)
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every set of modules that import each other, round a circle (Tarjan's strongly
    connected components, without recursion); each sorted, and only those of two or more."""
    index: dict[str, int] = {}
    lowest: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = lowest[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, onward = work[-1]
            step = next(onward, None)
            if step is not None:
                if step not in index:
                    index[step] = lowest[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in on_stack:
                    lowest[node] = min(lowest[node], index[step])
                continue
            work.pop()
            if work:
                lowest[work[-1][0]] = min(lowest[work[-1][0]], lowest[node])
            if lowest[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    circles.append(sorted(component))
    return circles


def test_no_import_circles_anywhere() -> None:
    """Modules that import each other cannot be read, tested or moved one at a time, and
    their import order decides whether they load at all."""
    graph = import_graph({relative: (ROOT / relative).read_text("utf-8") for relative in SOURCES})
    assert graph["bot.storage.interface"], "the graph must see the real imports"
    circles = import_circles(graph)
    assert not circles, "import circles:\n" + "\n".join(" <-> ".join(c) for c in circles)


def test_the_circle_check_finds_planted_circles() -> None:
    sources = {
        "bot/storage/outbox.py": "from bot.storage.records import GameRecord",
        "bot/storage/records.py": (
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from bot.storage import outbox\n"
        ),
        "bot/storage/__init__.py": "from bot.storage.outbox import Backlog",
        "bot/ai/shooter.py": "from bot.ai.grid import Grid",
        "bot/ai/grid.py": "import os",
        "bot/ai/sampling.py": "from bot.ai.grid import Grid",
        "bot/referee/a.py": "from .b import x",
        "bot/referee/b.py": "from .c import y",
        "bot/referee/c.py": "def f():\n    from bot.referee import a\n",
    }
    assert import_circles(import_graph(sources)) == [
        ["bot.referee.a", "bot.referee.b", "bot.referee.c"],
        ["bot.storage.outbox", "bot.storage.records"],
    ]


def test_a_package_re_exporting_its_modules_is_no_circle() -> None:
    sources = {
        "bot/storage/__init__.py": "from bot.storage.sqlite import SqliteRepository",
        "bot/storage/sqlite.py": "from bot.storage.records import GameRecord",
        "bot/storage/records.py": "import orjson",
    }
    assert import_circles(import_graph(sources)) == []
