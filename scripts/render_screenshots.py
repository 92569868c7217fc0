"""Render the README screenshots from the real main window, offscreen.

The conversation shown is stored messages (random-weight test models write gibberish, which
would make a poor picture); the window, the markdown rendering, the stats lines and the
overlay with its plot are the real widgets. Writes docs/screenshots/*.png.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"

ANSWER = """OpenVINO runs the model on the device you pick. To stream tokens from Python:

```python
import openvino_genai as ov_genai

pipe = ov_genai.LLMPipeline("Qwen3-4B-int4-ov", "GPU")
pipe.generate("Why is the sky blue?", max_new_tokens=200, streamer=print)
```

- **INT4 weights** cut memory traffic, the real limit of decoding speed.
- The first compile on GPU is slow; the compiled model is cached for the next start.
"""


def main() -> int:
    from PySide6.QtWidgets import QApplication

    from app.context import AppContext
    from app.conversations import ChatMessage
    from app.devices import DeviceInfo
    from app.paths import AppPaths
    from pipelines.core import MetricRecord
    from ui.main_window import MainWindow

    home = Path(tempfile.mkdtemp(prefix="ov-studio-shots-"))
    os.environ["OV_STUDIO_HOME"] = str(home)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    QApplication.setStyle("Fusion")
    devices = [
        DeviceInfo("CPU", "Intel(R) Core(TM) Ultra 7 155H"),
        DeviceInfo("GPU", "Intel(R) Arc(TM) Graphics (iGPU)"),
    ]
    ctx = AppContext.create(AppPaths.from_environment(), devices)
    ctx.settings.overlay_visible = True
    stats = {"output_tokens": 118, "tokens_per_s": 24.6, "ttft_ms": 412.0, "tpot_ms": 40.6}
    older = ctx.chat.new_conversation("You are a helpful assistant.")
    older.title = "Plan a trip to Lisbon"
    conversation = ctx.chat.new_conversation("You are a helpful assistant.")
    conversation.title = "Streaming with OpenVINO GenAI"
    conversation.messages += [
        ChatMessage("user", "How do I stream an answer from OpenVINO GenAI in Python?"),
        ChatMessage("assistant", ANSWER, device="AUTO → GPU", metrics=stats),
    ]
    conversation.updated = time.time() + 1
    now = time.time()
    for i in range(200):  # a minute of history for the plot
        rate = 22 + 4 * ((i // 8) % 2)
        ctx.metrics.publish(
            MetricRecord("chat", "GPU", {"tokens_per_s": rate}, timestamp=now, live=True)
        )
    ctx.metrics.publish(MetricRecord("chat", "GPU", stats))

    window = MainWindow(ctx)
    window.chat_panel._refresh_conversations(select_first=True)
    window.chat_panel.model_bar.name.setText("Qwen3-4B-int4-ov  (AUTO → GPU)")
    window.model_status.setText("Qwen3-4B-int4-ov · AUTO → GPU")
    window.chat_panel.input.setPlainText("And how do I stop it half-way?")
    window.resize(1280, 800)
    window.show()
    overlay = window.overlay
    overlay._timer.stop()  # drive the plot by hand so the picture is deterministic
    for i in range(120):
        ctx.metrics.publish(
            MetricRecord("chat", "GPU", {"tokens_per_s": 20 + (i % 40) / 4}, live=i < 100)
        )
        time.sleep(0.1)  # a realistic CPU reading needs a real interval between samples
        overlay.tick()
    ctx.metrics.publish(MetricRecord("chat", "GPU", stats))
    overlay.tick()
    app.processEvents()
    OUT.mkdir(parents=True, exist_ok=True)
    window.grab().save(str(OUT / "main-window.png"))
    overlay.grab().save(str(OUT / "overlay.png"))
    window.close()
    sys.stdout.write(f"{OUT / 'main-window.png'}\n{OUT / 'overlay.png'}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
