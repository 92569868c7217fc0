"""Engines: the one host every model loads through (a task's model and where it runs, the
settings' choice, is :mod:`app.core.model_choices`) and the remote endpoints models run on."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.face import lazy_exports

if TYPE_CHECKING:
    from app.core.model_choices import Local, ModelChoice, Placement, Remote
    from app.core.remote_endpoints import (
        RemoteEndpoint,
        endpoint_problems,
        find_endpoint,
        is_remote,
    )
    from app.engines.host import CachePolicy, EngineHost, LoadRequest
    from app.engines.remote.config import read_key, remote_choices, save_key
    from app.engines.remote.endpoints import ConnectionCheck, check_connection

_WHERE = {
    "CachePolicy": "app.engines.host:CachePolicy",
    "ConnectionCheck": "app.engines.remote.endpoints:ConnectionCheck",
    "EngineHost": "app.engines.host:EngineHost",
    "LoadRequest": "app.engines.host:LoadRequest",
    "Local": "app.core.model_choices:Local",
    "ModelChoice": "app.core.model_choices:ModelChoice",
    "Placement": "app.core.model_choices:Placement",
    "Remote": "app.core.model_choices:Remote",
    "RemoteEndpoint": "app.core.remote_endpoints:RemoteEndpoint",
    "check_connection": "app.engines.remote.endpoints:check_connection",
    "endpoint_problems": "app.core.remote_endpoints:endpoint_problems",
    "find_endpoint": "app.core.remote_endpoints:find_endpoint",
    "is_remote": "app.core.remote_endpoints:is_remote",
    "read_key": "app.engines.remote.config:read_key",
    "remote_choices": "app.engines.remote.config:remote_choices",
    "save_key": "app.engines.remote.config:save_key",
}
"""Each name the front ends use, and the module it lives in."""

__all__ = [
    "CachePolicy",
    "ConnectionCheck",
    "EngineHost",
    "LoadRequest",
    "Local",
    "ModelChoice",
    "Placement",
    "Remote",
    "RemoteEndpoint",
    "check_connection",
    "endpoint_problems",
    "find_endpoint",
    "is_remote",
    "read_key",
    "remote_choices",
    "save_key",
]
__getattr__ = lazy_exports(__name__, _WHERE)
