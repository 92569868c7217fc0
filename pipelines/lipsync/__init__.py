"""Lip-sync: a face image or video and speech in, a talking-head mp4 out (Wav2Lip contract).

Modules, in the order the data flows: ``media`` (read the face and the speech), ``faces``
(BlazeFace through OpenVINO) and ``boxes`` (choose, follow, pad, smooth), ``mel`` (Wav2Lip's
audio features), ``model`` (the network on a device, batched through an async infer queue),
``compose`` (crop in, feathered paste back), ``frames`` (frames kept for looping, spilled to
disk when large), ``render`` (frames in output order, batches, paste, encode), ``mp4``
(H.264 + AAC, written atomically) and ``pipeline`` (all of it, with progress, cancel, typed
errors). Heavy libraries (OpenVINO, OpenCV, PyAV) load on first use.
"""

from pipelines.lipsync.boxes import Box
from pipelines.lipsync.pipeline import LipsyncPipeline, LipsyncResult

__all__ = ["Box", "LipsyncPipeline", "LipsyncResult"]
