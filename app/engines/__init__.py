"""Engines: which model does each task and where it runs (:mod:`app.engines.choice`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.face import lazy_exports

if TYPE_CHECKING:
    from app.engines.choice import Local, ModelChoice, Placement, Remote
    from app.engines.host import CachePolicy, EngineHost, LoadRequest
    from app.engines.remote.config import (
        RemoteEndpoint,
        endpoint_problems,
        find_endpoint,
        is_remote,
        read_key,
        remote_choices,
        save_key,
    )
    from app.engines.remote.endpoints import ConnectionCheck, check_connection

_WHERE = {
    "CachePolicy": "app.engines.host:CachePolicy",
    "ConnectionCheck": "app.engines.remote.endpoints:ConnectionCheck",
    "EngineHost": "app.engines.host:EngineHost",
    "LoadRequest": "app.engines.host:LoadRequest",
    "Local": "app.engines.choice:Local",
    "ModelChoice": "app.engines.choice:ModelChoice",
    "Placement": "app.engines.choice:Placement",
    "Remote": "app.engines.choice:Remote",
    "RemoteEndpoint": "app.engines.remote.config:RemoteEndpoint",
    "check_connection": "app.engines.remote.endpoints:check_connection",
    "endpoint_problems": "app.engines.remote.config:endpoint_problems",
    "find_endpoint": "app.engines.remote.config:find_endpoint",
    "is_remote": "app.engines.remote.config:is_remote",
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
