"""The Create panel (issue 34): pictures from a prompt, edited, inpainted under a painted mask
or grown on a side, and the gallery they are kept in."""

from ui.create.panel import CreatePanel

__all__ = ["CreatePanel"]
