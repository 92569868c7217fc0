"""OpenVINO work: Qt-free, settings-free pipelines that a REPL or a test can drive."""

from pipelines.native_caches import bound_primitive_cache

# Before any model is compiled in this process: oneDNN reads its cache size only once.
bound_primitive_cache()
