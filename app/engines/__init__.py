"""Engines: which model does each task and where it runs (:mod:`app.engines.choice`)."""

from app.engines.choice import Local, ModelChoice, Placement, Remote

__all__ = ["Local", "ModelChoice", "Placement", "Remote"]
