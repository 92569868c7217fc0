"""The model manager window: installed models, the catalog, downloads."""

from ui.models.manager import ModelManager

__all__ = ["ModelManager"]
