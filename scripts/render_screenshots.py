"""Render the README screenshots from the real main window, offscreen.

What is staged (and only that): the conversation is made of stored messages, because the
random-weight test models write gibberish; the model row shows a representative model and
device; the overlay is fed one scripted minute of metrics and CPU/memory readings, so the
picture is the same on every machine. Everything drawn — window, markdown rendering, stats
lines, overlay and plot — is the real widgets. Writes docs/screenshots/main-window.png
(1280×800) and docs/screenshots/overlay.png, in a temporary OV_STUDIO_HOME.
"""

from __future__ import annotations

import math
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script from anywhere
OUT = ROOT / "docs" / "screenshots"
SIZE = (1280, 800)

QUESTION = "How do I stream an answer from OpenVINO GenAI in Python?"
ANSWER = """Create the pipeline once, then pass a **streamer**.

It receives each piece of text as soon as it is decoded:

```python
import openvino_genai as ov_genai

pipe = ov_genai.LLMPipeline("Qwen3-4B-int4-ov", "GPU")

def streamer(chunk: str) -> ov_genai.StreamingStatus:
    print(chunk, end="", flush=True)
    return ov_genai.StreamingStatus.RUNNING

pipe.generate("Why is the sky blue?", max_new_tokens=200, streamer=streamer)
```

- Return `StreamingStatus.STOP` to end early and keep the text so far.
- The first compile on GPU is slow; `CACHE_DIR` makes the next start fast.
"""
STATS = {"output_tokens": 186.0, "tokens_per_s": 24.6, "ttft_ms": 412.0, "tpot_ms": 40.6}
OTHER_CHATS = ["Summarise the Q3 report", "Regex for ISO dates", "Plan a trip to Lisbon"]
GIB = 1024**3


class ScriptedSampler:
    """CPU and memory readings of a minute with two answers, in step with the metrics."""

    def __init__(self) -> None:
        self.busy = False
        self._tick = 0

    def sample(self) -> object:
        """One reading: busy while an answer streams, idle otherwise."""
        from app.system_stats import SystemSample

        self._tick += 1
        wobble = math.sin(self._tick * 0.9) * 3 + math.sin(self._tick * 0.31) * 2
        cpu = (38.0 if self.busy else 5.0) + wobble
        return SystemSample(
            cpu_percent=max(cpu, 1.0),
            process_rss_bytes=int(3.12 * GIB),
            ram_used_bytes=int(11.4 * GIB),
            ram_total_bytes=int(31.6 * GIB),
        )


def main() -> int:
    """Build the window, stage it, save both PNGs; returns the exit code."""
    from app.context import AppContext
    from app.conversations import ChatMessage
    from app.devices import DeviceInfo
    from app.paths import AppPaths
    from app.services.chat import LoadedModel
    from ui.launcher import create_application
    from ui.main_window import MainWindow

    home = Path(tempfile.mkdtemp(prefix="ov-studio-shots-"))
    os.environ["OV_STUDIO_HOME"] = str(home)
    app = create_application()
    devices = [
        DeviceInfo("CPU", "Intel(R) Core(TM) Ultra 7 155H"),
        DeviceInfo("GPU", "Intel(R) Arc(TM) Graphics (iGPU)"),
    ]
    ctx = AppContext.create(AppPaths.from_environment(), devices)
    now = time.time()
    for age, title in enumerate(OTHER_CHATS, start=1):
        other = ctx.chat.new_conversation(ctx.settings.chat.system_prompt, title)
        other.messages.append(ChatMessage("user", title))
        other.updated = now - 3600 * age
    conversation = ctx.chat.new_conversation(ctx.settings.chat.system_prompt, "Streaming tokens")
    conversation.messages += [
        ChatMessage("user", QUESTION),
        ChatMessage("assistant", ANSWER, device="AUTO → GPU", metrics=STATS),
    ]
    conversation.updated = now

    window = MainWindow(ctx)
    window.resize(*SIZE)
    window.show()
    panel = window.chat_panel
    panel.conversations.refresh(select_first=True)
    panel.conversations.currentChanged.emit(panel.current_conversation_id())
    staged = LoadedModel(Path("Qwen3-4B-int4-ov"), "AUTO", "GPU", load_ms=5200.0)
    panel.model_picker.show_loaded(staged)
    window.model_status.set_loaded(staged)
    panel.model_picker.device_picker.set_device("AUTO")
    panel.input.setPlainText("And how do I stop it half-way?")
    window.overlay_action.setChecked(True)
    play_a_minute(window, ScriptedSampler())
    # Not a loop: one pass so pending layouts and paints are done before grabbing.
    app.processEvents()

    OUT.mkdir(parents=True, exist_ok=True)
    window.grab().save(str(OUT / "main-window.png"))
    window.overlay.grab().save(str(OUT / "overlay.png"))
    window.close()
    shutil.rmtree(home, ignore_errors=True)
    sys.stdout.write(f"{OUT / 'main-window.png'}\n{OUT / 'overlay.png'}\n")
    return 0


def play_a_minute(window: object, sampler: ScriptedSampler) -> None:
    """Feed 240 overlay ticks (60 s at 4 Hz): two answers streaming, idle in between."""
    from pipelines.core import MetricRecord
    from ui.main_window import MainWindow
    from ui.perf_overlay import SAMPLES

    assert isinstance(window, MainWindow)
    overlay = window.overlay
    overlay.sampler = sampler  # type: ignore[assignment]
    metrics = window.ctx.metrics
    answers = [(24, 80), (150, 226)]  # tick ranges in which an answer streams
    for tick in range(SAMPLES):
        streaming = any(start <= tick < end for start, end in answers)
        sampler.busy = streaming
        if streaming:
            rate = 24.6 + math.sin(tick * 0.7) * 1.4 + math.sin(tick * 0.23) * 0.8
            metrics.publish(MetricRecord("chat", "GPU", {"tokens_per_s": rate}, live=True))
        elif any(tick == end for _, end in answers):
            metrics.publish(MetricRecord("chat", "GPU", dict(STATS)))
        overlay.tick()


if __name__ == "__main__":
    sys.exit(main())
