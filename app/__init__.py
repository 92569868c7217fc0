"""The Qt-free core of OV Studio: settings, storage, devices, models, features, CLI, server."""

# Every process of the app imports this package first: pipelines/__init__ keeps OpenVINO's
# usage telemetry off before any module here imports OpenVINO (pipelines/telemetry.py).
import pipelines  # noqa: F401
