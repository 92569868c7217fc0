"""A Kokoro folder that is only installed (the real int8 ONNX, vocabulary and voice packs, as a
user adds it from disk) is converted once — on its first load, or on request with progress and
Cancel — into the models folder, never into the user's folder.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.model_choices import Local, ModelChoice
from app.core.model_tasks import ModelTask
from app.engines.host import LoadRequest
from app.models.kokoro_install import (
    CONVERTED_DIR,
    conversion_of,
    convert_installed,
    needs_conversion,
    speaking_folder,
)
from app.voice.engines import load_tts
from pipelines.core import Cancelled, CancelToken, Progress
from pipelines.files import TEMP_PREFIX
from pipelines.voice.kokoro import KokoroSynthesizer
from pipelines.voice.kokoro_convert import is_converted

pytestmark = pytest.mark.integration


def _listing(folder: Path) -> list[tuple[str, int, int]]:
    return sorted((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in folder.iterdir())


def test_an_installed_folder_is_converted_on_first_load_after_a_cancelled_conversion(
    kokoro_model_dir: Path, tmp_path: Path
) -> None:
    models_dir = tmp_path / "models"
    before = _listing(kokoro_model_dir)
    assert needs_conversion(kokoro_model_dir, models_dir)

    cancel = CancelToken()

    def stop_at_saving(progress: Progress) -> None:
        if progress.done == 3:
            cancel.cancel()

    with pytest.raises(Cancelled):
        convert_installed(kokoro_model_dir, models_dir, cancel, stop_at_saving)
    converted_root = models_dir / CONVERTED_DIR
    assert list(converted_root.iterdir()) == []  # no folder, no stage left behind
    assert needs_conversion(kokoro_model_dir, models_dir)
    assert speaking_folder(kokoro_model_dir, models_dir) == kokoro_model_dir

    choice = ModelChoice(task=ModelTask.TTS, folder=kokoro_model_dir, placement=Local(device="CPU"))
    model = load_tts(LoadRequest(choice, "CPU", None, {}), models_dir=models_dir)
    try:
        assert isinstance(model, KokoroSynthesizer)
        target = conversion_of(kokoro_model_dir, models_dir)
        assert model.model_dir == target and is_converted(target)
        assert sorted(model.voices())[0] == "jf_alpha"
    finally:
        model.close()
    assert not needs_conversion(kokoro_model_dir, models_dir)
    assert speaking_folder(kokoro_model_dir, models_dir) == target
    assert convert_installed(kokoro_model_dir, models_dir) == target  # made once
    assert _listing(kokoro_model_dir) == before  # the user's folder is never written
    assert not list(converted_root.glob(f"{TEMP_PREFIX}*"))


def test_a_folder_that_is_not_kokoro_needs_no_conversion(tmp_path: Path) -> None:
    (tmp_path / "other").mkdir()
    assert not needs_conversion(tmp_path / "other", tmp_path / "models")
    assert speaking_folder(tmp_path / "other", tmp_path / "models") == tmp_path / "other"


def test_an_older_versions_conversion_still_speaks_after_an_upgrade(
    converted_kokoro: Path, tmp_path: Path
) -> None:
    """A downloaded Kokoro keeps only its IR: after an app upgrade changes the conversion's
    version there is no ONNX to convert again, so the old IR is loaded as it is."""
    import json
    import shutil

    old = tmp_path / "kokoro-82m"
    shutil.copytree(converted_kokoro, old)
    config = json.loads((old / "config.json").read_text(encoding="utf-8"))
    config["conversion"]["version"] = 1
    (old / "config.json").write_text(json.dumps(config), encoding="utf-8")
    assert not is_converted(old)
    models_dir = tmp_path / "models"
    assert not needs_conversion(old, models_dir)
    assert speaking_folder(old, models_dir) == old
    choice = ModelChoice(task=ModelTask.TTS, folder=old, placement=Local(device="CPU"))
    model = load_tts(LoadRequest(choice, "CPU", None, {}), models_dir=models_dir)
    try:
        assert isinstance(model, KokoroSynthesizer) and model.model_dir == old
        assert not (models_dir / CONVERTED_DIR).exists()
        assert sum(chunk.samples.size for chunk in model.speak("Hello.", model.voices()["jm_kumo"]))
    finally:
        model.close()
