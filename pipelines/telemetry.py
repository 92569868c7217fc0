"""OpenVINO's usage telemetry, kept off: OV Studio sends nothing anywhere.

``import openvino`` imports its converter (``openvino.tools.ovc``), which, unless the user opted
out with OpenVINO's own tool, writes a client id under ``~/intel`` and sends a Google Analytics
event ("general_import") from a forked process — on every start of the app, of a conversion
and of the grammar probe. The product promises that nothing leaves the computer, so the
``openvino_telemetry`` package is made unimportable in our processes before OpenVINO is first
imported: OpenVINO then falls back to its own no-op stub (``openvino.tools.ovc.telemetry_stub``)
and nothing else changes. A process that imported OpenVINO before us keeps its telemetry (a
user's own script importing our pipelines after OpenVINO: their choice).
"""

from __future__ import annotations

import sys

TELEMETRY_PACKAGE = "openvino_telemetry"


def keep_telemetry_off() -> None:
    """Make OpenVINO's telemetry package unimportable in this process (idempotent)."""
    # None in sys.modules makes `import openvino_telemetry` raise ImportError, the case
    # OpenVINO handles by using its stub. setdefault: a copy already imported stays as it is.
    sys.modules.setdefault(TELEMETRY_PACKAGE, None)  # type: ignore[arg-type]
