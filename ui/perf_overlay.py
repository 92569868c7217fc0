"""Performance HUD: device, TTFT, TPOT, tokens/s, CPU and memory, with a one-minute plot.

Polls the Qt-free metrics bus and a psutil sampler from a 4 Hz timer. Each tick reuses its
widgets and preallocated ring buffers (``setData`` only), so it costs the GUI thread about a
millisecond; :meth:`PerfOverlay.tick` is public so tests and benchmarks can time it.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Slot
from PySide6.QtGui import QHideEvent, QShowEvent
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QVBoxLayout, QWidget

from app.metrics import MetricsBus
from app.system_stats import SystemSampler

TICK_MS = 250
HISTORY_SECONDS = 60
SAMPLES = HISTORY_SECONDS * 1000 // TICK_MS
GIB = 1024**3
TOP_OFFSET = 110


class PerfOverlay(QFrame):
    """A semi-transparent panel pinned to the top-right corner of its parent."""

    def __init__(self, metrics: MetricsBus, parent: QWidget, pipeline: str = "chat") -> None:
        super().__init__(parent)
        self.setObjectName("perfOverlay")
        self.setStyleSheet(
            "#perfOverlay { background: rgba(20, 24, 30, 215); border-radius: 8px; }"
            "#perfOverlay QLabel { color: #e8eef5; font-size: 11px; }"
        )
        self.setFixedWidth(300)
        self._metrics = metrics
        self._pipeline = pipeline
        self._sampler = SystemSampler()
        self._x = np.linspace(-HISTORY_SECONDS, 0, SAMPLES)
        self._rate = np.zeros(SAMPLES)
        self._cpu = np.zeros(SAMPLES)
        self.values: dict[str, QLabel] = {}
        grid = QGridLayout()
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(1)
        rows = [
            ("device", "Device"),
            ("ttft", "TTFT"),
            ("tpot", "TPOT"),
            ("rate_last", "Tokens/s (last)"),
            ("rate_live", "Tokens/s (live)"),
            ("cpu", "CPU"),
            ("rss", "App memory"),
            ("ram", "System RAM"),
        ]
        for row, (key, title) in enumerate(rows):
            grid.addWidget(QLabel(title), row, 0)
            value = QLabel("–")
            value.setAlignment(Qt.AlignmentFlag.AlignRight)
            grid.addWidget(value, row, 1)
            self.values[key] = value
        self.plot = pg.PlotWidget(background="#1b2027")
        self.plot.setFixedHeight(110)
        self.plot.setMouseEnabled(False, False)
        self.plot.hideButtons()
        self.plot.setXRange(-HISTORY_SECONDS, 0, padding=0)
        self.plot.addLegend(offset=(4, 2), labelTextSize="8pt")
        self.plot.getAxis("left").setTextPen("#c8d2dc")
        self.plot.getAxis("bottom").setTextPen("#c8d2dc")
        self.rate_curve = self.plot.plot(
            self._x, self._rate, pen=pg.mkPen("#4fd1c5", width=2), name="tok/s"
        )
        self.cpu_curve = self.plot.plot(
            self._x, self._cpu, pen=pg.mkPen("#f6ad55", width=1), name="CPU %"
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        heading = QLabel("<b>Performance</b>  (F12)")
        layout.addWidget(heading)
        layout.addLayout(grid)
        layout.addWidget(self.plot)
        self._timer = QTimer(self)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self.tick)
        parent.installEventFilter(self)
        self.hide()

    @Slot()
    def tick(self) -> None:
        """Read the bus and the system once and update labels and plot."""
        snapshot = self._metrics.snapshot()
        last = snapshot.latest.get(self._pipeline)
        live = snapshot.latest_live.get(self._pipeline)
        sample = self._sampler.sample()
        if last is not None:
            values = last.values
            self.values["device"].setText(last.device)
            self.values["ttft"].setText(_ms(values.get("ttft_ms")))
            self.values["tpot"].setText(_ms(values.get("tpot_ms")))
            self.values["rate_last"].setText(_rate(values.get("tokens_per_s")))
        live_rate = live.values.get("tokens_per_s", 0.0) if live is not None else 0.0
        if live is not None:
            self.values["device"].setText(live.device)
        self.values["rate_live"].setText(_rate(live_rate) if live is not None else "idle")
        self.values["cpu"].setText(f"{sample.cpu_percent:.0f} %")
        self.values["rss"].setText(f"{sample.process_rss_bytes / GIB:.2f} GiB")
        self.values["ram"].setText(
            f"{sample.ram_used_bytes / GIB:.1f} / {sample.ram_total_bytes / GIB:.1f} GiB"
        )
        self._rate = np.roll(self._rate, -1)
        self._cpu = np.roll(self._cpu, -1)
        self._rate[-1] = live_rate
        self._cpu[-1] = sample.cpu_percent
        self.rate_curve.setData(self._x, self._rate)
        self.cpu_curve.setData(self._x, self._cpu)

    def showEvent(self, event: QShowEvent) -> None:
        """Start polling only while visible."""
        self._place()
        self.raise_()
        self.tick()
        self._timer.start()
        super().showEvent(event)

    def hideEvent(self, event: QHideEvent) -> None:
        """Stop polling while hidden: an invisible overlay costs nothing."""
        self._timer.stop()
        super().hideEvent(event)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Follow the parent's size to stay in its top-right corner."""
        if event.type() == QEvent.Type.Resize:
            self._place()
        return False

    def _place(self) -> None:
        parent = self.parentWidget()
        if parent is not None:
            self.adjustSize()
            # Below the panel's own toolbar rows, so the device picker stays reachable.
            self.move(parent.width() - self.width() - 12, TOP_OFFSET)


def _ms(value: float | None) -> str:
    return "–" if not value else f"{value:.1f} ms"


def _rate(value: float | None) -> str:
    return "–" if not value else f"{value:.1f}"
