"""``optimum-cli`` run in this interpreter with OpenVINO's usage telemetry off.

``python -m app.models.optimum_cli export openvino …`` is ``optimum-cli export openvino …``:
importing ``app`` first keeps OpenVINO's telemetry off (:mod:`pipelines.telemetry`), which the
plain ``python -m optimum.commands.optimum_cli`` would send from the conversion toolchain's
environment. Runs in that environment, with the app's sources on ``PYTHONPATH``.
"""

from __future__ import annotations

import runpy

if __name__ == "__main__":
    # optimum-cli reads its arguments from sys.argv[1:], which -m leaves as they were given.
    runpy.run_module("optimum.commands.optimum_cli", run_name="__main__", alter_sys=True)
