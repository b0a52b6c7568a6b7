"""Interfaces for people: text descriptions, HTML drawing, the Jupyter
viewer, tutorials, the static HTML export and the Voila app (the top layer
but for the CLI; docs/architecture.md)."""
from euchre_events.ui.display import register_display

register_display()  # inside a Jupyter kernel: Card and TableState draw themselves
