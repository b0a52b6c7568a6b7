"""Build hook: the wheel carries the notebooks, the sample records and the rules reference.

Everything else about the package is in pyproject.toml.  The repository keeps
``notebooks/``, ``fixtures/`` and ``docs/`` at the top, where people look for
them; a wheel can only carry files inside the package.  Rather than keep a
copy by hand (which would drift), ``build_py`` below copies them into
``euchre_events/data/`` of the build tree, and adds them to the files of the
sdist, so a wheel built from the sdist carries the same.  The list of files
is ``shipped_files`` in ``euchre_events/samples.py``, the module that finds
them again at run time.

An editable install (``pip install -e .``) copies nothing: there
``euchre_events.samples`` reads the checkout's own folders, so an edited
notebook is served as it is.

The face-up solver's play search is also compiled, when a C compiler is
there: ``euchre_events/analysis/_playsearch.c``, an ``Extension`` marked
``optional`` (a machine without a compiler, or without Python's headers,
still installs, and the solver uses its Python search; the build prints a
warning).  An editable install compiles it into the source tree
(``euchre_events/analysis/_playsearch*.so``, ignored by git).
"""
import importlib.util
import shutil
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


def _samples_module():
    # by file path: the package is not importable while it is being built
    spec = importlib.util.spec_from_file_location("_euchre_events_samples",
                                                  ROOT / "euchre_events" / "samples.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildPyWithData(build_py):
    """``build_py`` that also copies the shipped files into the package's ``data/``."""

    def _shipped(self):
        return _samples_module().shipped_files(ROOT)

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target_root = Path(self.build_lib) / "euchre_events" / "data"
        # a reused build/ folder must not keep a notebook that has left the repository
        shutil.rmtree(target_root, ignore_errors=True)
        for dest, src in self._shipped().items():
            target = Path(self.build_lib) / "euchre_events" / dest
            target.parent.mkdir(parents=True, exist_ok=True)
            self.copy_file(str(src), str(target), preserve_mode=False)

    def get_outputs(self, include_bytecode=True):
        outputs = super().get_outputs(include_bytecode)
        if getattr(self, "editable_mode", False):
            return outputs
        return outputs + [str(Path(self.build_lib) / "euchre_events" / d) for d in self._shipped()]

    def get_source_files(self):
        # the sdist's file list: with these, a wheel built from the sdist equals one built here
        return super().get_source_files() + [src.relative_to(ROOT).as_posix()
                                             for src in self._shipped().values()]


PLAYSEARCH = Extension("euchre_events.analysis._playsearch",
                       sources=["euchre_events/analysis/_playsearch.c"],
                       # no debug info: the build folder would be written into the binary, and a
                       # wheel built from the sdist must be the same as one built here
                       extra_compile_args=["-O2", "-g0"],
                       optional=True)

setup(cmdclass={"build_py": BuildPyWithData}, ext_modules=[PLAYSEARCH])
