"""docs/architecture.md names every module and every command (issue 24).

* A module (every ``.py`` and C source under ``euchre_events/``) is named by its
  path relative to ``euchre_events/`` (``rules/variants/bidding.py``, or with the
  package's name in front) anywhere in the page, or by its file name in its
  layer's section (the section whose heading names the layer: ``rules/``,
  ``cli.py``).  Where two modules of one layer share a file name
  (``rules/__init__.py``, ``rules/variants/__init__.py``), the file name alone
  names neither: the section must give its folder too (``variants/__init__.py``).
  The package's own ``__init__.py`` is named as ``euchre_events/__init__.py``.
* A command of the typer application (subcommands of a group included) is named
  as ``euchre-events CMD`` or in the first column of the commands table (a table
  whose first header is "command"), whose second column names the module that
  implements it (a module that exists).
* The layers the page lists are the import-linter contract's, in its order, and
  each layer has a section of its own.
* Every module the page names by path or file name exists (no stale path).

A module or command added without its line in the page fails here.
"""
from __future__ import annotations

import re
import tomllib
import pytest
import typer.main

from conftest import ROOT
from euchre_events.cli import app

PACKAGE = ROOT / "euchre_events"
DOC = ROOT / "docs" / "architecture.md"
SOURCE_SUFFIXES = (".py", ".c")


def package_modules() -> list[str]:
    """Every module of the package as a path relative to ``euchre_events/``
    (``rules/engine.py``, ``analysis/_playsearch.c``); what a wheel build
    copies into ``data/`` is not a module."""
    found = []
    for path in PACKAGE.rglob("*"):
        rel = path.relative_to(PACKAGE)
        if path.suffix in SOURCE_SUFFIXES and path.is_file() and rel.parts[0] != "data" \
                and "__pycache__" not in rel.parts:
            found.append(rel.as_posix())
    return sorted(found)


def cli_commands() -> list[str]:
    """Every command of the ``euchre-events`` application as typed after the
    program's name (``audit``; ``GROUP SUB`` for a subcommand)."""
    names = []

    def walk(group, prefix: str) -> None:
        # typer >= 0.2x carries its own click: a group is what has commands
        for name, command in sorted(getattr(group, "commands", {}).items()):
            names.append(prefix + name)
            walk(command, prefix + name + " ")

    walk(typer.main.get_command(app), "")
    return names


def doc_text() -> str:
    return DOC.read_text(encoding="utf-8")


def sections(text: str) -> list[tuple[str, str]]:
    """``(heading, body)`` of every section of the page; a section's body runs
    to the next heading of its level or above, so it holds its subsections."""
    lines = text.splitlines()
    heads = [(i, len(m.group(1)), m.group(2)) for i, line in enumerate(lines)
             if (m := re.match(r"(#{1,6})\s+(.*)", line))]
    out = []
    for n, (i, level, title) in enumerate(heads):
        end = next((j for j, lv, _ in heads[n + 1:] if lv <= level), len(lines))
        out.append((title, "\n".join(lines[i + 1:end])))
    return out


def names_path(text: str, path: str) -> bool:
    """``path`` written as a path of its own in ``text`` (not the tail of a
    longer one: ``egn/audit.py`` does not name ``projections/audit.py``)."""
    return re.search(r"(?<![\w./-])(?:euchre_events/)?" + re.escape(path) + r"(?![\w/])", text) is not None


def layer_of(module: str) -> str:
    """The layer's name as the page's section heading writes it."""
    parts = module.split("/")
    return parts[0] + "/" if len(parts) > 1 else parts[0]


def layer_section(text: str, layer: str) -> str:
    """The bodies of the sections whose heading names ``layer`` first."""
    return "\n".join(body for title, body in sections(text)
                     if (m := re.search(r"`([^`]+)`", title)) and m.group(1) == layer)


def is_named(text: str, module: str, modules: list[str]) -> bool:
    if module == "__init__.py":
        return names_path(text, "euchre_events/__init__.py")
    if names_path(text, module):
        return True
    layer = layer_of(module)
    body = layer_section(text, layer)
    name = module.rsplit("/", 1)[-1]
    shared = [m for m in modules if m != module and layer_of(m) == layer and m.rsplit("/", 1)[-1] == name]
    if shared and "/" in module:
        # the folder and the file name: variants/__init__.py, egn/__init__.py
        return names_path(body, "/".join(module.split("/")[-2:]))
    return names_path(body, name)


def commands_table(text: str) -> dict[str, list[str]]:
    """The commands table's rows: command (without ``euchre-events``) -> its
    other cells."""
    rows: dict[str, list[str]] = {}
    in_table = False
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.lstrip().startswith("|") else None
        if cells is None:
            in_table = False
            continue
        if not in_table:
            in_table = cells[0].lower() == "command"
            continue
        if set(cells[0]) <= set("-: "):
            continue
        command = cells[0].strip("`").removeprefix("euchre-events ").strip()
        rows[command] = cells[1:]
    return rows


def test_the_package_and_the_application_are_found():
    modules = package_modules()
    # the walk sees every layer, the subpackages' subpackages and the C source
    for module in ("events.py", "cli.py", "rules/variants/upcard.py", "formats/egn/read.py",
                   "analysis/_playsearch.c", "__init__.py"):
        assert module in modules
    commands = cli_commands()
    for command in ("import", "list", "show", "audit", "export", "analyze", "verify", "record"):
        assert command in commands


@pytest.mark.parametrize("module", package_modules())
def test_every_module_is_named(module):
    text = doc_text()
    where = "its path" if module == "__init__.py" else f"its path, or its file name in the `{layer_of(module)}` section"
    assert is_named(text, module, package_modules()), \
        f"docs/architecture.md does not name euchre_events/{module} ({where}): add a line saying its job and layer"


@pytest.mark.parametrize("command", cli_commands())
def test_every_command_is_named(command):
    text = doc_text()
    assert f"euchre-events {command}" in text or command in commands_table(text), \
        f"docs/architecture.md does not name the command `euchre-events {command}`: add it to the commands table"


def test_the_commands_table_names_modules_that_exist():
    rows = commands_table(doc_text())
    assert rows, "docs/architecture.md has no commands table (| command | module | layers it reads |)"
    modules = set(package_modules())
    for command, cells in rows.items():
        assert command in cli_commands(), f"the commands table names `{command}`, which the application lacks"
        named = re.findall(r"`([\w/]+\.(?:py|c))", cells[0])
        assert named, f"the commands table's row for `{command}` names no module"
        for module in named:
            assert module in modules, f"the commands table's row for `{command}` names {module}, which does not exist"


def test_every_path_named_exists():
    """A module the page names by its path (``archive/store.py``,
    ``tests/test_fastcore.py``) or by a file name (``upcard.py``) exists: a
    module moved or split leaves no stale path in the newcomer's paths."""
    text = doc_text()
    names = {p.name for p in ROOT.rglob("*") if p.is_file() and ".venv" not in p.parts and ".git" not in p.parts}
    for token in sorted(set(re.findall(r"`(?:euchre_events/)?([\w./-]+\.(?:py|c))`", text))):
        if "/" in token:
            assert (PACKAGE / token).exists() or (ROOT / token).exists() \
                or any(p.as_posix().endswith("/" + token) for p in PACKAGE.rglob("*" + token.rsplit("/", 1)[-1])), \
                f"docs/architecture.md names {token}, which does not exist"
        else:
            assert token in names, f"docs/architecture.md names {token}, which no file of the checkout is"


def contract_layers() -> list[list[str]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contract = next(c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers")
    return [[name.strip().removeprefix("euchre_events.") for name in layer.split("|")]
            for layer in contract["layers"]]


def test_the_layers_listed_are_the_contracts():
    text = doc_text()
    listed = re.search(r"\*\*layers\*\* contract:(.*?)from the top down", text, re.S)
    assert listed, "docs/architecture.md no longer lists the layers contract's layers"
    names = [n.strip(" `\n") for n in listed.group(1).split(",") if n.strip(" `\n")]
    # the page lists one name a layer (events; samples, its sibling, said apart)
    assert names == [layer[0] for layer in contract_layers()]
    for layer in contract_layers():
        for name in layer:
            heading = name + ".py" if (PACKAGE / (name + ".py")).is_file() else name + "/"
            assert layer_section(text, heading), f"docs/architecture.md has no section for the layer `{heading}`"

