"""The files that ship with the package: notebooks, sample records, rules reference.

A user who ran ``pip install euchre-events`` has no checkout, so the wheel
carries the repository's ``notebooks/*.ipynb``, the sample records listed in
:data:`SAMPLES` (from ``fixtures/``) and ``docs/rules.md``.  The repository
keeps them where they are: ``setup.py`` copies them into
``euchre_events/data/`` of the *build* at wheel-build time (and adds them to
the sdist), so no copy is kept in git.  See :func:`shipped_files`.

At run time every lookup goes through this module, and it looks in two places:

1. ``euchre_events/data/`` inside the installed package (a wheel), found
   with :mod:`importlib.resources`;
2. otherwise the source checkout the package runs from (an editable install,
   or ``PYTHONPATH``): ``notebooks/``, ``fixtures/`` and ``docs/`` beside the
   package folder.

So ``path("egn/VWEC Finals.egn")`` is the shipped sample in a wheel and
``fixtures/egn/VWEC Finals.egn`` in a checkout; a notebook that uses it runs
unchanged in both, and from any working directory.

This module imports only the standard library: ``setup.py`` loads it by
file path at build time, before the package is installed.
"""
from __future__ import annotations

import importlib.resources
import shutil
from pathlib import Path
from typing import Dict, List, Optional

__all__ = ["SAMPLES", "path", "names", "copy_samples", "notebooks_dir", "notebook",
           "notebook_names", "rules_reference", "checkout_root", "install_hint",
           "shipped_files", "DataMissing"]

SAMPLES = (
    # what a user gets from `euchre-events samples DIR` (fixtures/SAMPLES.md says why these)
    "SAMPLES.md",
    "egn/LICENSE",
    "egn/SOURCE.md",
    "egn/VWEC Finals.egn",
    "egn/VWEC Finals Annotated.egn",
    "egn/Six Points in Two Hands.egn",
    "egn/Epic Comeback.egn",
    "standard/club-night-1.euchre",
    "two-handed/parlour-2.euchre",
    "cutthroat/cutthroat-2.euchre",
    "ghost-hand/ghost-2.euchre",
    "buck/buck-2.euchre",
    "bid/bid-1.euchre",
)
"""The sample records, by their path under the repository's ``fixtures/``
(and under the package's ``data/samples/``): real EGN games with their
licence, and one complete game per variant."""

DATA = "data"
"""The folder inside the package that the build fills (never in git)."""

_PKG = Path(__file__).resolve().parent
# kind of shipped file -> (folder under data/, folder in a checkout)
_KINDS = {"notebooks": ("notebooks", "notebooks"), "samples": ("samples", "fixtures"),
          "docs": ("docs", "docs")}


class DataMissing(FileNotFoundError):
    """A shipped file or folder is not where the package expects it."""


def shipped_files(root) -> Dict[str, Path]:
    """What the build copies into the package: ``{path under euchre_events/:
    source file}``, for the checkout or unpacked sdist at ``root``.

    Every notebook in ``notebooks/`` (so a new one ships without a change
    here), the :data:`SAMPLES` from ``fixtures/``, and ``docs/rules.md``.
    Raises :class:`DataMissing` naming any listed file that is not there (a
    wheel without it would be broken).
    """
    root = Path(root)
    files: Dict[str, Path] = {}
    for nb in sorted((root / "notebooks").glob("*.ipynb")):
        files[f"{DATA}/notebooks/{nb.name}"] = nb
    for name in SAMPLES:
        files[f"{DATA}/samples/{name}"] = root / "fixtures" / name
    files[f"{DATA}/docs/rules.md"] = root / "docs" / "rules.md"
    missing = [str(src) for src in files.values() if not src.is_file()]
    if missing:
        raise DataMissing(f"files to ship are missing: {', '.join(missing)}")
    if not any(k.startswith(f"{DATA}/notebooks/") for k in files):
        raise DataMissing(f"no notebook in {root / 'notebooks'}")
    return files


def checkout_root() -> Optional[Path]:
    """The source checkout the package runs from (the folder holding
    ``pyproject.toml``, ``notebooks/`` and ``fixtures/``), or None for an
    installed wheel."""
    root = _PKG.parent
    if ((root / "pyproject.toml").is_file() and (root / "notebooks").is_dir()
            and (root / "fixtures").is_dir()):
        return root
    return None


def _shipped_dir() -> Optional[Path]:
    # importlib.resources: the package's own folder wherever it is installed
    try:
        data = importlib.resources.files("euchre_events") / DATA
    except ModuleNotFoundError:  # loaded by file path (setup.py): no shipped data yet
        return None
    return Path(str(data)) if data.is_dir() else None


def _folder(kind: str) -> Path:
    shipped, in_checkout = _KINDS[kind]
    data = _shipped_dir()
    if data is not None and (data / shipped).is_dir():
        return data / shipped
    root = checkout_root()
    if root is not None:
        return root / in_checkout
    raise DataMissing(f"the package's {kind} are missing from {_PKG / DATA / shipped}: "
                      f"reinstall it ({install_hint(None)})")


def notebooks_dir() -> Path:
    """The folder of the notebooks: ``euchre_events/data/notebooks`` in a
    wheel, ``notebooks/`` in a checkout.  Raises :class:`DataMissing` if
    neither is there."""
    return _folder("notebooks")


def notebook_names() -> List[str]:
    """The file names of the notebooks (``review-a-game.ipynb``, ``tutorial-*.ipynb``...)."""
    return sorted(p.name for p in notebooks_dir().glob("*.ipynb"))


def notebook(name: str) -> Path:
    """The notebook called ``name`` (``"tutorial-standard"`` or
    ``"tutorial-standard.ipynb"``).  Raises :class:`DataMissing` naming the
    notebooks there are."""
    file = name if name.endswith(".ipynb") else f"{name}.ipynb"
    p = notebooks_dir() / file
    if not p.is_file() or Path(file).name != file:
        raise DataMissing(f"no notebook {file!r} in {notebooks_dir()}; there are: "
                          f"{', '.join(notebook_names())}")
    return p


def names() -> List[str]:
    """The sample files, as :data:`SAMPLES` names them (``"egn/VWEC Finals.egn"``...)."""
    return list(SAMPLES)


def path(name: str) -> Path:
    """The sample file ``name`` (one of :data:`SAMPLES`, e.g.
    ``"egn/VWEC Finals.egn"``): the shipped copy in a wheel, the fixture in
    a checkout.  Only the shipped samples are found, in a checkout too, so a
    notebook cannot come to need a record that the wheel lacks.  Raises
    :class:`DataMissing` for another name or a missing file."""
    key = str(name).replace("\\", "/")
    if key not in SAMPLES:
        raise DataMissing(f"{name!r} is not a sample record; the samples are: {', '.join(SAMPLES)}")
    p = _folder("samples") / key
    if not p.is_file():
        raise DataMissing(f"the sample {key!r} is missing: no file {p}")
    return p


def rules_reference() -> Path:
    """The rules reference (``docs/rules.md``).  Raises :class:`DataMissing` if absent."""
    p = _folder("docs") / "rules.md"
    if not p.is_file():
        raise DataMissing(f"the rules reference is missing: no file {p}")
    return p


def copy_samples(dest, force: bool = False) -> List[Path]:
    """Write every sample into the folder ``dest`` (created if missing),
    keeping the sub-folders (``egn/``, ``standard/``...); returns the files
    written.  A file already there with other content is kept, and raises
    ``FileExistsError`` naming it (``force=True`` overwrites)."""
    dest = Path(dest)
    if dest.exists() and not dest.is_dir():
        raise NotADirectoryError(f"{dest}: exists and is not a folder")
    pairs = [(path(n), dest / n) for n in SAMPLES]
    clash = [str(t) for s, t in pairs if t.exists() and (t.is_dir() or t.read_bytes() != s.read_bytes())]
    if clash and not force:
        raise FileExistsError(f"would overwrite {', '.join(clash)} (give --force to overwrite)")
    written = []
    for src, target in pairs:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, target)
        written.append(target)
    return written


def install_hint(extra: Optional[str] = "app", also: str = "") -> str:
    """The install command that fits this installation: ``pip install
    'euchre-events[app]'`` for a wheel; ``pip install -e '.[app]'`` (run in
    the checkout) when the package runs from a source checkout.  ``also``:
    more packages for the same command (``"jupyterlab"``)."""
    root = checkout_root()
    spec = f"[{extra}]" if extra else ""
    more = f" {also}" if also else ""
    if root is not None and _shipped_dir() is None:
        return f"pip install -e '.{spec}'{more} (run in {root})"
    if not extra and not also:
        return "pip install --force-reinstall euchre-events"
    return f"pip install 'euchre-events{spec}'{more}"
