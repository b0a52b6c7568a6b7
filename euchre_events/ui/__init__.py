"""Interfaces for people: text descriptions, HTML drawing, the Jupyter
viewer, tutorials, the static HTML export, the audit report and the Voila
app (the top layer but for the CLI; docs/architecture.md).

Importing it does nothing: Jupyter's rich display of ``Card`` and
``TableState`` is registered by :func:`euchre_events.ui.display.register_display`,
which the notebook modules (:mod:`.widgets`, :mod:`.tutorial`) call when
they are imported."""
