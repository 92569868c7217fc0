"""GGUF files as chat models, on the real SmolLM2-135M-Instruct (Q4_1) and faulty copies of it:
metadata, the converted-model cache, the model list, and bad files refused in one sentence."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from app.context import AppContext
from app.core.devices import DeviceInfo
from app.core.errors import StorageError, UserError
from app.core.paths import AppPaths
from app.models.registry import ModelRegistry, gguf_model_id
from pipelines.chat import ChatModelConfig, ChatPipeline
from pipelines.core import CancelToken, InvalidInputError
from pipelines.generation import GenerationSettings, Message
from pipelines.gguf import read_gguf_info
from pipelines.gguf_cache import SOURCE_FILE
from tests.app_process import run_app

pytestmark = pytest.mark.integration

GREEDY = GenerationSettings(max_new_tokens=16, temperature=0.0)
CAPITAL = [Message("user", "What is the capital of France?")]

# What each faulty file must be refused with (one sentence, the same in the CLI and the GUI).
REFUSALS = {
    "cut-short": "is damaged or cut short",
    "mamba": "is a “mamba” model; this OpenVINO reads GGUF files of llama, qwen2 and qwen3",
    "no-tokenizer": "has no tokenizer inside",
    "q5_0": "stores weights as Q5_0, which this OpenVINO cannot read",
    "not-gguf": "is not a GGUF model file",
    "empty": "is empty (0 bytes)",
}


def _answer(pipe: ChatPipeline) -> str:
    return pipe.generate(CAPITAL, GREEDY, CancelToken(), lambda _text: None).text


def test_the_metadata_says_what_the_file_holds(real_gguf: Path) -> None:
    info = read_gguf_info(real_gguf)
    assert (info.architecture, info.quantization, info.context_length) == ("llama", "Q4_1", 8192)
    assert 130e6 < info.parameters < 140e6  # SmolLM2-135M
    assert info.size_bytes == real_gguf.stat().st_size
    assert info.has_tokenizer and info.has_chat_template
    assert info.weight_types[0] == "Q4_1"


def test_the_first_load_converts_and_the_next_comes_from_the_cache(
    real_gguf: Path, tmp_path: Path
) -> None:
    converted = tmp_path / "gguf"
    with ChatPipeline(ChatModelConfig(real_gguf, converted_dir=converted)) as first:
        first.load()
        assert not first.from_cache and first.notes == ()
        assert "Paris" in _answer(first)
    [entry] = [folder for folder in converted.iterdir() if not folder.name.startswith(".")]
    assert {"openvino_model.xml", "openvino_tokenizer.xml", SOURCE_FILE} <= {
        path.name for path in entry.iterdir()
    }
    assert not any(path.suffix == ".gguf" for path in entry.iterdir())  # the link is gone
    with ChatPipeline(ChatModelConfig(real_gguf, converted_dir=converted)) as second:
        second.load()
        assert second.from_cache
        assert second.gguf is not None and second.gguf.architecture == "llama"
        assert "Paris" in _answer(second)


def test_a_copy_of_a_converted_file_is_found_by_its_hash(real_gguf: Path, tmp_path: Path) -> None:
    converted = tmp_path / "gguf"
    ChatPipeline(ChatModelConfig(real_gguf, converted_dir=converted)).load()
    copy = tmp_path / "elsewhere" / "renamed.gguf"
    copy.parent.mkdir()
    shutil.copyfile(real_gguf, copy)  # another path and modification time, the same bytes
    pipe = ChatPipeline(ChatModelConfig(copy, converted_dir=converted))
    pipe.load()
    assert pipe.from_cache
    [record] = [json.loads(p.read_text()) for p in converted.glob(f"*/{SOURCE_FILE}")]
    assert {Path(known["path"]).name for known in record["files"]} == {
        real_gguf.name,
        "renamed.gguf",
    }


def test_a_damaged_cache_entry_is_converted_again(real_gguf: Path, tmp_path: Path) -> None:
    converted = tmp_path / "gguf"
    ChatPipeline(ChatModelConfig(real_gguf, converted_dir=converted)).load()
    [weights] = converted.glob("*/openvino_model.bin")
    weights.write_bytes(b"")  # damaged behind the app's back
    pipe = ChatPipeline(ChatModelConfig(real_gguf, converted_dir=converted))
    pipe.load()
    assert not pipe.from_cache
    assert "Paris" in _answer(pipe)
    assert ChatPipeline(ChatModelConfig(real_gguf, converted_dir=converted)).load() > 0


def test_an_unwritable_cache_still_loads_and_says_the_next_start_converts_again(
    real_gguf: Path, unwritable_folder: Path
) -> None:
    pipe = ChatPipeline(ChatModelConfig(real_gguf, converted_dir=unwritable_folder / "gguf"))
    pipe.load()
    [note] = pipe.notes
    assert note.startswith("The converted model could not be kept in ")
    assert note.endswith(f"the next start converts {real_gguf.name} again.")
    assert "Paris" in _answer(pipe)


@pytest.mark.parametrize("fault", sorted(REFUSALS))
def test_a_faulty_gguf_is_refused_before_openvino_sees_it(
    fault: str, gguf_variants: dict[str, Path], tmp_path: Path
) -> None:
    # A file cut short would crash the process inside OpenVINO: reaching this assert at all
    # shows it never got there.
    pipe = ChatPipeline(ChatModelConfig(gguf_variants[fault], converted_dir=tmp_path / "gguf"))
    with pytest.raises(InvalidInputError, match=re.escape(REFUSALS[fault])) as raised:
        pipe.load()
    assert raised.value.field == "model"
    assert not pipe.loaded
    assert not [p for p in (tmp_path / "gguf").glob("*") if p.is_dir()]  # no stage left


@pytest.mark.parametrize("fault", sorted(REFUSALS))
def test_the_command_line_says_a_faulty_gguf_in_one_line(
    fault: str, gguf_variants: dict[str, Path], app_home: AppPaths
) -> None:
    done = run_app(["chat", "--model", str(gguf_variants[fault]), "Hello"], app_home)
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.splitlines()
    assert REFUSALS[fault] in line
    assert done.stdout == ""


def test_a_faulty_gguf_keeps_the_previous_model_answering(
    real_gguf: Path, gguf_variants: dict[str, Path], app_home: AppPaths
) -> None:
    ctx = AppContext.create(app_home, [DeviceInfo("CPU", "Test CPU")])
    assert ctx.chat.converts_on_load(real_gguf)  # the CLI and the window say so while it runs
    ctx.chat.load_model(real_gguf, "CPU")
    assert not ctx.chat.converts_on_load(real_gguf)
    for fault in ("cut-short", "mamba"):
        with pytest.raises(UserError, match=re.escape(REFUSALS[fault])):
            ctx.chat.load_model(gguf_variants[fault], "CPU")
    loaded = ctx.chat.loaded_model
    assert loaded is not None and loaded.model_path == real_gguf.resolve()
    assert loaded.gguf is not None and loaded.context_tokens == 8192
    conversation = ctx.chat.new_conversation("")
    answer = ctx.chat.ask(
        conversation.id, "What is the capital of France?", GREEDY, CancelToken(), lambda _: None
    )
    assert "Paris" in answer.message.content


def test_a_folder_holding_one_gguf_opens_it_and_two_are_asked_about(
    real_gguf: Path, app_home: AppPaths, tmp_path: Path
) -> None:
    folder = tmp_path / "downloads"
    folder.mkdir()
    (folder / real_gguf.name).symlink_to(real_gguf)
    ctx = AppContext.create(app_home, [DeviceInfo("CPU", "Test CPU")])
    loaded = ctx.chat.load_model(folder, "CPU")
    assert loaded.model_path.name == real_gguf.name
    (folder / "other.gguf").symlink_to(real_gguf)
    with pytest.raises(UserError, match=r"holds 2 GGUF files \(.*\): open the one you want"):
        ctx.chat.load_model(folder, "CPU")


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
