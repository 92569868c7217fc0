"""The PostgreSQL programs as the embedded database runs them, for tests that drive them."""

from __future__ import annotations

import os
from pathlib import Path

from app.knowledge.database.account import server_account
from app.knowledge.database.cluster import bundled_install
from app.knowledge.database.service_dir import reachable_install, service_dir


def runnable_install() -> Path:
    """The bundled programs, or (as root, when the service account cannot reach the wheel,
    e.g. a checkout in a private folder) the copy the app makes of them."""
    account = server_account()
    if not account.separate:
        return bundled_install()
    return reachable_install(bundled_install(), service_dir(os.environ), account)
