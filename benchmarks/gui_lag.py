"""Event-loop lag of the real main window while an answer streams (offscreen Qt).

A 5 ms probe timer records how late each of its ticks fires; the worst lateness while tokens
stream into the view is the longest the GUI thread was blocked. The overlay is visible, so
its 4 Hz ticks are part of what is measured; their own cost is timed separately too.
"""

from __future__ import annotations

import os
import statistics
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

PROBE_MS = 5
PROMPT = "Write a long explanation of how OpenVINO compiles a model for a device."


def measure_streaming_lag(model: Path, tokens: int, home: Path) -> dict[str, float]:
    """Stream one answer of ``tokens`` tokens into the window; return lag statistics (ms)."""
    from PySide6.QtCore import QElapsedTimer, QTimer
    from PySide6.QtWidgets import QApplication

    from app.context import AppContext
    from app.core.devices import DeviceInfo
    from app.core.paths import AppPaths
    from pipelines.generation import GenerationSettings
    from ui.shell.gc_policy import gui_thread_gc
    from ui.shell.main_window import MainWindow
    from ui.shell.singleton_guard import SingletonRefGuard

    app = QApplication.instance() or QApplication([])
    collecting = gui_thread_gc()  # as the app does: collections on the GUI thread only
    collecting.__enter__()
    SingletonRefGuard(app)  # as the app does: PySide6 6.12.0 leaks None/True references
    root = home / "gui"
    paths = AppPaths(root / "config", root / "data", root / "cache", root / "logs")
    ctx = AppContext.create(paths, [DeviceInfo("CPU", "CPU")])
    ctx.chat.load_model(model, "CPU")
    window = MainWindow(ctx)
    window.resize(1280, 800)
    window.show()
    window.menus.overlay_action.setChecked(True)
    panel = window.chat_panel

    lags: list[float] = []
    clock = QElapsedTimer()
    last = [0.0]
    streaming = [False]

    def probe() -> None:
        now = clock.nsecsElapsed() / 1e6
        if streaming[0]:
            lags.append(max(0.0, now - last[0] - PROBE_MS))
        last[0] = now

    def on_finished(_: bool) -> None:
        streaming[0] = False
        QTimer.singleShot(50, app.quit)

    timer = QTimer()
    timer.setInterval(PROBE_MS)
    timer.timeout.connect(probe)
    panel.answerFinished.connect(on_finished)
    settings = GenerationSettings(max_new_tokens=tokens, temperature=0.0, ignore_eos=True)

    def start() -> None:
        clock.start()
        last[0] = 0.0
        streaming[0] = True
        timer.start()
        panel.send_text(PROMPT, settings)

    started = time.perf_counter()
    QTimer.singleShot(100, start)
    app.exec()
    elapsed = time.perf_counter() - started
    timer.stop()
    answer = ctx.chat.get(panel.current_conversation_id()).messages[-1]

    tick_costs = []
    for _ in range(200):
        begin = time.perf_counter()
        window.overlay.tick()
        tick_costs.append((time.perf_counter() - begin) * 1000)
    window.close()
    collecting.__exit__(None, None, None)
    lags.sort()
    return {
        "model": model.name,
        "tokens": answer.metrics.get("output_tokens", 0.0),
        "tokens_per_s": answer.metrics.get("tokens_per_s", 0.0),
        "seconds": elapsed,
        "probe_ticks": float(len(lags)),
        "max_lag_ms": lags[-1] if lags else 0.0,
        "p99_lag_ms": lags[int(0.99 * (len(lags) - 1))] if lags else 0.0,
        "median_lag_ms": statistics.median(lags) if lags else 0.0,
        "overlay_tick_ms_mean": statistics.fmean(tick_costs),
        "overlay_tick_ms_max": max(tick_costs),
    }
