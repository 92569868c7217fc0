"""OpenVINO work: Qt-free, settings-free pipelines that a REPL or a test can drive."""

from pipelines.native_memory import bound_native_memory
from pipelines.telemetry import keep_telemetry_off

# Before OpenVINO is first imported: its import would send a usage event (pipelines/telemetry.py).
keep_telemetry_off()

# Before any model is compiled in this process: oneDNN reads its cache size only once, and
# the C library's threshold matters from the first large buffer on.
bound_native_memory()
