"""OpenVINO work: Qt-free, settings-free pipelines that a REPL or a test can drive."""

from pipelines.native_memory import bound_native_memory

# Before any model is compiled in this process: oneDNN reads its cache size only once, and
# the C library's threshold matters from the first large buffer on.
bound_native_memory()
