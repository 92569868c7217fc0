"""The model list and GGUF files (the real SmolLM2-135M and faulty copies of it): recorded, only
its own copy removed, refused when it could not run, missing when gone, names that are not
UTF-8."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from app.core.errors import StorageError, UserError
from app.core.paths import AppPaths
from app.models.registry import ModelRegistry, gguf_model_id
from tests.app_process import run_app
from tests.integration.pipelines.test_gguf_cache import REFUSALS

pytestmark = pytest.mark.integration


def test_the_model_list_records_a_gguf_and_removes_only_its_own_copy(
    real_gguf: Path, app_home: AppPaths
) -> None:
    registry = ModelRegistry(app_home.model_registry, app_home.models_dir)
    in_place = registry.add_folder(real_gguf)
    assert in_place.usable and in_place.precision == "Q4_1" and not in_place.owned
    assert in_place.gguf is not None and in_place.gguf.context_length == 8192
    with pytest.raises(UserError, match="is already installed"):
        registry.add_folder(real_gguf)
    registry.remove(in_place.id)
    assert real_gguf.is_file()  # registered in place: only forgotten
    copied = registry.add_folder(real_gguf, copy=True)
    assert copied.owned and copied.folder.parent.parent == app_home.models_dir
    assert copied.folder.read_bytes()[:4] == b"GGUF"
    [listed] = registry.models()
    assert listed.id == copied.id and listed.gguf == copied.gguf
    assert registry.remove(copied.id).deleted
    assert not copied.folder.parent.exists() and real_gguf.is_file()


def test_a_gguf_copy_never_fills_a_folder_that_was_already_there(
    real_gguf: Path, app_home: AppPaths
) -> None:
    registry = ModelRegistry(app_home.model_registry, app_home.models_dir)
    theirs = app_home.models_dir / gguf_model_id(real_gguf.name)
    theirs.mkdir(parents=True)
    (theirs / "notes.txt").write_text("mine")
    with pytest.raises(StorageError, match="Could not make the folder"):
        registry.add_folder(real_gguf, copy=True)
    assert registry.models() == [] and [p.name for p in theirs.iterdir()] == ["notes.txt"]


@pytest.mark.parametrize("fault", ["mamba", "no-tokenizer", "cut-short", "not-gguf"])
def test_the_model_list_refuses_a_gguf_it_could_not_run(
    fault: str, gguf_variants: dict[str, Path], app_home: AppPaths
) -> None:
    registry = ModelRegistry(app_home.model_registry, app_home.models_dir)
    with pytest.raises(UserError, match=re.escape(REFUSALS[fault])):
        registry.add_folder(gguf_variants[fault], copy=True)
    assert registry.models() == []
    assert not any(app_home.models_dir.iterdir()) if app_home.models_dir.exists() else True


def test_a_gguf_entry_whose_file_is_gone_is_missing(real_gguf: Path, app_home: AppPaths) -> None:
    registry = ModelRegistry(app_home.model_registry, app_home.models_dir)
    copied = registry.add_folder(real_gguf, copy=True)
    copied.folder.unlink()
    [listed] = registry.models()
    assert listed.status == "missing"
    assert listed.problems == (f"The file {copied.folder} is gone.",)


def test_a_gguf_whose_name_is_not_utf8_is_listed_and_answers(
    real_gguf: Path, app_home: AppPaths, tmp_path: Path
) -> None:
    # Linux file names are bytes: Python keeps the undecodable ones as lone surrogates, which
    # a UTF-8 JSON file cannot hold (this was an internal error, exit 70).
    odd = Path(os.fsdecode(os.fsencode(tmp_path) + b"/model-\xff\xfe.gguf"))
    shutil.copyfile(real_gguf, odd)
    added = run_app(["models", "add", str(odd)], app_home)
    assert added.returncode == 0, added.stderr
    [listed] = ModelRegistry(app_home.model_registry, app_home.models_dir).models()
    assert listed.folder == odd and listed.usable
    done = run_app(
        ["chat", "--model", str(odd), "--temperature", "0", "What is the capital of France?"],
        app_home,
    )
    assert done.returncode == 0, done.stderr
    assert "Paris" in done.stdout
