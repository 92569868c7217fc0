"""Fakes for UI tests only: a chat pipeline whose streaming and loading the test controls."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from app.core.devices import DeviceInfo
from pipelines.chat import ChatModelConfig, ChatResult
from pipelines.core import Cancelled, CancelToken, DeviceError, MetricRecord
from pipelines.generation import GenerationSettings, Message
from pipelines.gguf import GgufInfo, is_gguf_path
from pipelines.gguf_relayout import LayoutDecision

CPU = DeviceInfo("CPU", "Test CPU")
GPU = DeviceInfo("GPU", "Test iGPU")
GPU0 = DeviceInfo("GPU.0", "Test Arc dGPU")


@dataclass
class Script:
    """What the fake pipeline does; tests change it between steps."""

    chunks: list[str] = field(default_factory=lambda: ["Hello", " there", ", friend."])
    hold_after: int | None = None
    """Stream this many chunks, then wait for ``release`` (or a cancel)."""
    release: threading.Event = field(default_factory=threading.Event)
    fail_with: BaseException | None = None
    failing_devices: tuple[str, ...] = ()
    loads: list[str] = field(default_factory=list)
    """Device of every load, in order."""
    load_gate: threading.Event | None = None
    """When set, loading waits for it, as a slow compile would."""
    seen: list[list[Message]] = field(default_factory=list)
    """The messages each generation was given (system prompt, history, question)."""
    notes: tuple[str, ...] = ()
    """What a load tells the user without failing (as the real one says about its cache)."""
    answer_starts: list[str] = field(default_factory=list)
    """The ``answer_start`` of each generation ("" for a new answer)."""

    def unblock(self) -> None:
        """Let every waiting fake load or generation go on."""
        self.release.set()
        if self.load_gate is not None:
            self.load_gate.set()


class FakeChatPipeline:
    """Stands in for :class:`pipelines.chat.ChatPipeline` under the real ChatService: streams
    ``script.chunks`` and honours the cancel token as the real pipeline does.

    Like the real one it is a :class:`pipelines.contract.Pipeline`, and it offers what the chat
    asks of its engine (``app.chat.tool_loop.Generates``, ``app.chat.history.TokenCounter``);
    tests/unit/tests/ui/test_fakes.py holds it to those Protocols.
    """

    name = "chat"
    continues_answers = True

    def __init__(self, config: ChatModelConfig, script: Script) -> None:
        self.config = config
        self.script = script
        self.gguf: GgufInfo | None = None
        self.notes: tuple[str, ...] = ()
        self.converted: Path | None = None  # a GGUF read without the converted cache
        self.layout: LayoutDecision | None = None
        self.load_ms = 0.0
        self._last = MetricRecord(self.name, config.device, {})

    @property
    def loaded(self) -> bool:
        return self.load_ms > 0

    def close(self) -> None:
        self.load_ms = 0.0

    def metrics(self) -> MetricRecord:
        return self._last

    def load(self, cancel: CancelToken | None = None) -> float:
        if cancel is not None and cancel.cancelled:
            raise Cancelled()
        self.script.loads.append(self.config.device)
        if self.script.load_gate is not None:
            self.script.load_gate.wait(10)
        if self.config.device in self.script.failing_devices:
            raise DeviceError(
                f"Could not compile the model on {self.config.device}: out of memory",
                device=self.config.device,
            )
        if is_gguf_path(self.config.model_path):
            self.gguf = fake_gguf_info(self.config.model_path)
        self.notes = self.script.notes
        self.load_ms = 5.0
        return self.load_ms

    def count_tokens(self, text: str) -> int:
        return len(text.split())

    def generate(
        self,
        messages: Sequence[Message],
        settings: GenerationSettings,
        cancel: CancelToken,
        on_text: Callable[[str], None],
        *,
        answer_start: str = "",
    ) -> ChatResult:
        self.script.seen.append(list(messages))
        self.script.answer_starts.append(answer_start)
        if self.script.fail_with is not None:
            raise self.script.fail_with
        sent: list[str] = []
        for index, chunk in enumerate(self.script.chunks[: settings.max_new_tokens]):
            if self.script.hold_after is not None and index == self.script.hold_after:
                # A worker thread waiting for the test, checking its cancel token meanwhile.
                while not self.script.release.wait(0.01):
                    if cancel.cancelled:
                        break
            if cancel.cancelled:
                break
            sent.append(chunk)
            on_text(chunk)
        values = {"output_tokens": float(len(sent)), "tokens_per_s": 42.0, "ttft_ms": 7.0}
        # A chunk is a token here: an answer that ran out of room is cut, as the engine says.
        cut = not cancel.cancelled and len(sent) >= settings.max_new_tokens
        self._last = MetricRecord("chat", self.config.device, values)
        return ChatResult("".join(sent), cancel.cancelled, self._last, cut=cut)


def fake_model_folder(root: Path, name: str = "tiny-chat") -> Path:
    """A folder that passes the chat-model checks (files and config only)."""
    folder = root / name
    folder.mkdir(parents=True)
    for file in ("openvino_model.xml", "openvino_tokenizer.xml", "openvino_detokenizer.xml"):
        (folder / file).write_text("<net/>", encoding="utf-8")
    config = {"architectures": ["LlamaForCausalLM"], "max_position_embeddings": 2048}
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    return folder


def embedding_model_folder(root: Path, name: str = "bge-small") -> Path:
    """A folder holding an (embedding) OpenVINO model that is not a chat model."""
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "openvino_model.xml").write_text("<net/>", encoding="utf-8")
    config = {"architectures": ["BertModel"], "model_type": "bert"}
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    return folder


def fake_gguf_info(path: Path) -> GgufInfo:
    """What the fake pipeline reports for any ``.gguf`` file: a small llama in Q4_1."""
    return GgufInfo(
        name=path.stem,
        architecture="llama",
        quantization="Q4_1",
        context_length=8192,
        parameters=134_515_008,
        size_bytes=path.stat().st_size,
        weight_types=("Q4_1", "F32"),
        has_tokenizer=True,
        has_chat_template=True,
    )


def fake_gguf_file(root: Path, name: str = "SmolLM2-135M-Instruct.Q4_1.gguf") -> Path:
    """A file the GUI-side checks accept as a GGUF model (the fake pipeline reads nothing)."""
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"GGUF" + bytes(60))
    return path
