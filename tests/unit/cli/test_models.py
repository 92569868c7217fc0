"""`python -m app models …` on real fixture folders, in-process."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from app.cli.main import main


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("OV_STUDIO_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def test_add_list_remove(
    home: Path, chat_model_dir: Path, embedding_model_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["models", "add", str(chat_model_dir)]) == 0
    assert main(["models", "add", str(embedding_model_dir), "--copy"]) == 0
    capsys.readouterr()
    assert main(["models", "list", "--json"]) == 0
    listed = {m["id"]: m for m in json.loads(capsys.readouterr().out)}
    assert listed["llm-int8"]["task"] == "chat" and not listed["llm-int8"]["owned"]
    assert listed["embedding"]["owned"] and listed["embedding"]["status"] == "ok"
    copy = Path(listed["embedding"]["folder"])
    assert copy.parent == home / "data" / "models"
    assert main(["models", "list", "--task", "embedding"]) == 0
    assert "llm-int8" not in capsys.readouterr().out
    assert main(["models", "remove", "embedding"]) == 0
    assert "deleted its files" in capsys.readouterr().out and not copy.exists()
    assert main(["models", "remove", "llm-int8"]) == 0
    assert "left in place" in capsys.readouterr().out
    assert (chat_model_dir / "openvino_model.xml").is_file()


def test_user_errors_exit_2_with_one_line(
    home: Path, tmp_path: Path, embedding_model_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["models", "add", str(tmp_path / "nowhere")]) == 2
    assert capsys.readouterr().err.startswith("error: There is no folder")
    assert main(["models", "add", str(embedding_model_dir), "--task", "chat"]) == 2
    err = capsys.readouterr().err
    assert "holds an embedding model, not a chat model" in err and err.count("\n") == 1
    assert main(["models", "remove", "nope"]) == 2
    assert "No installed model has the id" in capsys.readouterr().err


def test_removing_an_entry_that_names_the_models_folder_deletes_nothing(
    home: Path, embedding_model_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["models", "add", str(embedding_model_dir), "--copy"]) == 0
    listing = home / "data" / "models.json"
    stored = json.loads(listing.read_text())
    models_dir = home / "data" / "models"
    for name, folder in (("whole", models_dir), ("climb", models_dir / "embedding" / "..")):
        stored["models"].append({**stored["models"][0], "id": name, "folder": str(folder)})
    listing.write_text(json.dumps(stored))
    capsys.readouterr()
    for name in ("whole", "climb"):
        assert main(["models", "remove", name]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith(f"error: {name} was taken off the list")
        assert "it is not a folder the app made inside its models folder" in err
        assert (models_dir / "embedding" / "openvino_model.xml").is_file()
    assert main(["models", "remove", "embedding"]) == 0
    assert "deleted its files" in capsys.readouterr().out
    assert models_dir.is_dir() and list(models_dir.iterdir()) == []


def test_hostile_entries_are_listed_as_escapes(
    home: Path, embedding_model_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["models", "add", str(embedding_model_dir)]) == 0
    listing = home / "data" / "models.json"
    stored = json.loads(listing.read_text())
    hostile = {**stored["models"][0], "id": "\x1b]0;pwned\x07x\u202e", "precision": "\x9b2J"}
    hostile["folder"] += "\x1b[2J\udcff"  # a folder name that is not UTF-8, too
    stored["models"].append(hostile)
    listing.write_text(json.dumps(stored))
    capsys.readouterr()
    assert main(["models", "list"]) == 0
    out = capsys.readouterr().out
    assert not any(c in out for c in "\x1b\x07\x9b\u202e\udcff")
    assert "\\x1b]0;pwned\\x07x\\u202e" in out and "\\x1b[2J\\udcff" in out
    assert main(["models", "list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert hostile["id"] in [row["id"] for row in rows]


def test_lipsync_models_must_have_the_wav2lip_contract(
    home: Path,
    tmp_path: Path,
    lipsync_model_dir: Path,
    speaker_encoder_dir: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["models", "add", str(lipsync_model_dir), "--task", "lipsync"]) == 0
    assert "added wav2lip (lipsync" in capsys.readouterr().out
    # Another network's IR under the lip-sync file name (no config.json to give it away).
    other = tmp_path / "not-wav2lip"
    other.mkdir()
    for suffix in (".xml", ".bin"):
        name = f"openvino_model{suffix}"
        shutil.copy(speaker_encoder_dir / name, other / name)
    assert main(["models", "add", str(other), "--task", "lipsync"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: not-wav2lip was not added: openvino_model.xml is not a lip-sync")
    assert "audio [B,1,80,16] and face [B,6,96,96] and give [B,3,96,96]" in err
    assert "but it takes [1,-1,24] and gives [1,1,512]" in err and err.count("\n") == 1
    (other / "openvino_model.xml").rename(other / "model.xml")
    assert main(["models", "add", str(other), "--task", "lipsync"]) == 2
    assert "it lacks openvino_model.xml" in capsys.readouterr().err
    assert main(["models", "list", "--json"]) == 0
    assert [m["id"] for m in json.loads(capsys.readouterr().out)] == ["wav2lip"]


def test_catalog_lists_and_filters(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["models", "catalog", "--task", "chat", "--device", "NPU", "--json"]) == 0
    [entry] = json.loads(capsys.readouterr().out)
    assert entry["hub_id"].endswith("-int4-cw-ov") and entry["task"] == "chat"
    assert main(["models", "catalog"]) == 0
    assert "microsoft/speecht5_tts" in capsys.readouterr().out


def test_catalog_names_the_file_and_quantization_of_gguf_entries(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["models", "catalog", "--task", "chat", "--device", "GPU"]) == 0
    [line] = [row for row in capsys.readouterr().out.splitlines() if "Llama-3.2-1B" in row]
    assert line.startswith("bartowski/Llama-3.2-1B-Instruct-GGUF ")
    assert line.endswith("download --file Llama-3.2-1B-Instruct-Q4_0.gguf (Q4_0)")
    assert main(["models", "catalog", "--task", "chat", "--json"]) == 0
    rows = {(row["hub_id"], row["file"]): row for row in json.loads(capsys.readouterr().out)}
    entry = rows["bartowski/Llama-3.2-1B-Instruct-GGUF", "Llama-3.2-1B-Instruct-Q4_0.gguf"]
    assert (entry["quantization"], entry["size_bytes"]) == ("Q4_0", 773025920)
    assert rows["OpenVINO/Qwen3-4B-int4-ov", ""]["quantization"] == ""


def test_a_damaged_entry_is_listed_as_broken_and_can_be_removed(
    home: Path, chat_model_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["models", "add", str(chat_model_dir)]) == 0
    registry = home / "data" / "models.json"
    stored = json.loads(registry.read_text(encoding="utf-8"))
    good = stored["models"][0]
    stored["models"].append({**good, "id": "hand-edited", "size_bytes": "3 GB", "folder": 7})
    registry.write_text(json.dumps(stored), encoding="utf-8")
    capsys.readouterr()
    assert main(["models", "list"]) == 0
    shown = capsys.readouterr()
    assert shown.err == ""
    [broken] = [line for line in shown.out.splitlines() if line.startswith("hand-edited")]
    assert "[broken: Its entry in the model list is damaged" in broken
    assert "“size_bytes” is not a number" in broken and "“folder” is not text" in broken
    assert main(["models", "list", "--json"]) == 0
    rows = {row["id"]: row for row in json.loads(capsys.readouterr().out)}
    assert rows["llm-int8"]["status"] == "ok" and rows["hand-edited"]["status"] == "broken"
    assert rows["hand-edited"]["folder"] == ""
    assert main(["models", "remove", "hand-edited"]) == 0
    assert "removed hand-edited" in capsys.readouterr().out
    assert main(["models", "list", "--json"]) == 0
    assert [row["id"] for row in json.loads(capsys.readouterr().out)] == ["llm-int8"]


def test_a_damaged_model_list_is_said_once_and_set_aside(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    registry = home / "data" / "models.json"
    registry.parent.mkdir(parents=True)
    registry.write_bytes(b'{"models": ' + b"[" * 100_000 + b"]" * 100_000 + b"}")
    assert main(["models", "list"]) == 0
    shown = capsys.readouterr()
    assert "no models installed yet" in shown.out
    [warning] = shown.err.splitlines()
    assert warning.startswith("warning: The model list was damaged (nested too deeply)")
    assert main(["models", "list"]) == 0
    assert capsys.readouterr().err == ""  # set aside: the next command is clean
