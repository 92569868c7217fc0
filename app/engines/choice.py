"""Which model does a task and where it runs: the one value every model loader is handed.

A :class:`ModelChoice` names a task (:class:`~app.models.inspect.ModelTask`), the model's
folder (or ``.gguf`` file; None: the task's default, e.g. the bundled embedder) and its
placement: :class:`Local` on an OpenVINO device, or :class:`Remote` on a configured
OpenAI-compatible endpoint. Choices are frozen and hashable, so a loaded engine can be kept
under its choice and reused while the choice stays the same.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.models.inspect import ModelTask


class Local(BaseModel):
    """The model runs in this process on an OpenVINO device (CPU, GPU, NPU, AUTO, …)."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["local"] = "local"
    device: str = Field("AUTO", min_length=1, max_length=40)


class Remote(BaseModel):
    """The task runs on a configured OpenAI-compatible endpoint, named as in the settings."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["remote"] = "remote"
    endpoint: str = Field(min_length=1, max_length=60)


Placement = Annotated[Local | Remote, Field(discriminator="kind")]
"""Where a model runs: in this process, or on a remote endpoint."""


class ModelChoice(BaseModel):
    """The model chosen for one task and where it runs."""

    model_config = ConfigDict(frozen=True)

    task: ModelTask
    folder: Path | None = None
    placement: Placement = Field(default_factory=Local)

    @property
    def device(self) -> str:
        """The OpenVINO device of a local choice; "" for a remote one."""
        return self.placement.device if isinstance(self.placement, Local) else ""

    @property
    def is_remote(self) -> bool:
        """Whether the task runs on a remote endpoint."""
        return isinstance(self.placement, Remote)
