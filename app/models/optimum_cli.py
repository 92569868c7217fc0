"""``optimum-cli`` run in this interpreter with OpenVINO's usage telemetry off.

``python -m app.models.optimum_cli export openvino …`` is ``optimum-cli export openvino …``:
importing ``app`` first keeps OpenVINO's telemetry off (:mod:`pipelines.telemetry`), which the
plain ``python -m optimum.commands.optimum_cli`` would send from the conversion toolchain's
environment. Runs in that environment, with the app's sources on ``PYTHONPATH``. Names
transformers 5 removed are answered first (:mod:`app.models.transformers_compat`).
"""

from __future__ import annotations

import runpy

from app.models.transformers_compat import answer_removed_names

if __name__ == "__main__":
    answer_removed_names()  # diffusers 0.36 with transformers 5: see that module
    # optimum-cli reads its arguments from sys.argv[1:], which -m leaves as they were given.
    runpy.run_module("optimum.commands.optimum_cli", run_name="__main__", alter_sys=True)
