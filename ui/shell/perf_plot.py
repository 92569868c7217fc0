"""The performance overlay's plot: the last minute of tokens/s and CPU, on two scales.

Tokens/s is drawn against the left scale, which grows to a round number above the highest
rate; CPU % (this app's, and the whole system's under it) against a fixed 0–100 scale on the
right. :meth:`PerfPlot.push` adds one reading of each: values go into preallocated ring buffers
and the curves get ``setData`` on views of them, so a tick allocates nothing. :class:`PlotKey`
is the caption that says which curve is which.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, Slot
from PySide6.QtWidgets import QLabel, QWidget

from ui.i18n import tr

RATE_COLOR = "#4fd1c5"
CPU_COLOR = "#f6ad55"
SYSTEM_CPU_COLOR = "#8a96a3"
AXIS_HEADROOM = 1.12
"""The plot's top is this much above the highest tick, so the top tick's number is whole."""


class PlotKey(QLabel):
    """The caption under the overlay's numbers naming the plot's curves and their scales."""

    # A caption instead of a pyqtgraph legend: a legend inside the plot hides the curves.
    def __init__(self) -> None:
        super().__init__(self.caption())
        self.setStyleSheet("color: #9fb0c0; font-size: 10px;")

    @staticmethod
    def caption() -> str:
        """The caption in the language now installed."""
        # Each tr() outside the f-string: lupdate does not read calls inside one.
        rate, left, app_cpu = tr("tokens/s"), tr("(left)"), tr("CPU % this app")
        system_cpu, right, span = tr("whole system"), tr("(right)"), tr("last 60 s")
        return (
            f"<span style='color:{RATE_COLOR}'>━ {rate}</span> {left}<br>"
            f"<span style='color:{CPU_COLOR}'>━ {app_cpu}</span>&nbsp;&nbsp;"
            f"<span style='color:{SYSTEM_CPU_COLOR}'>━ {system_cpu}</span> {right} · {span}"
        )

    def event(self, event: QEvent) -> bool:
        """A language switch re-makes the caption (it glues several translations together)."""
        # event(), not changeEvent(): see ui.shell.main_window.MainWindow.event.
        if event.type() == QEvent.Type.LanguageChange:
            self.setText(self.caption())
        return super().event(event)


class _Ring:
    """A fixed-size history; :meth:`view` is the last ``size`` values without copying."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._data = np.zeros(2 * size)  # every value is written twice: a window is contiguous
        self._head = 0

    def push(self, value: float) -> None:
        self._data[self._head] = value
        self._data[self._head + self._size] = value
        self._head = (self._head + 1) % self._size

    def view(self) -> np.ndarray:
        return self._data[self._head : self._head + self._size]


# pyqtgraph has no type hints: to mypy its PlotWidget is Any.
class PerfPlot(pg.PlotWidget):  # type: ignore[misc]
    """The last ``seconds`` of readings, ``samples`` of each, the newest at the right (0 s)."""

    def __init__(self, seconds: int, samples: int, parent: QWidget | None = None) -> None:
        super().__init__(parent, background="#1b2027")
        self.setFixedHeight(120)
        self._x = np.linspace(-seconds, 0, samples)
        self._rate = _Ring(samples)
        self._cpu = _Ring(samples)
        self._system_cpu = _Ring(samples)
        self._rate_top = 0.0
        item = self.getPlotItem()
        item.setMouseEnabled(False, False)
        item.hideButtons()
        item.setMenuEnabled(False)
        item.setXRange(-seconds, 0, padding=0)
        item.setYRange(0, 10 * AXIS_HEADROOM, padding=0)
        for side, color in (("left", RATE_COLOR), ("right", CPU_COLOR), ("bottom", "#c8d2dc")):
            item.showAxis(side)
            axis = item.getAxis(side)
            axis.setTextPen(color)
            axis.setPen("#59636e")
            if side == "bottom":
                axis.setHeight(20)
            else:
                axis.setWidth(30)
        self.rate_curve = pg.PlotCurveItem(pen=pg.mkPen(RATE_COLOR, width=2), name="tok/s")
        item.addItem(self.rate_curve)
        # CPU % gets its own 0–100 scale on the right: tokens/s may be in the hundreds.
        self.cpu_view = pg.ViewBox(enableMouse=False)
        """The right scale's view, where the CPU curves are drawn."""
        item.scene().addItem(self.cpu_view)
        item.getAxis("right").linkToView(self.cpu_view)
        self.cpu_view.setXLink(item)
        # A little headroom above 100 so the top tick label is not cut in half.
        self.cpu_view.setYRange(0, 100 * AXIS_HEADROOM, padding=0)
        item.getAxis("right").setTicks([[(0, "0"), (50, "50"), (100, "100")]])
        self.system_cpu_curve = pg.PlotCurveItem(
            pen=pg.mkPen(SYSTEM_CPU_COLOR, width=1), name="system CPU %"
        )
        self.cpu_view.addItem(self.system_cpu_curve)
        self.cpu_curve = pg.PlotCurveItem(pen=pg.mkPen(CPU_COLOR, width=1), name="app CPU %")
        self.cpu_view.addItem(self.cpu_curve)  # after the system's: drawn on top of it
        item.vb.sigResized.connect(self._sync_views)

    def push(self, rate: float, app_cpu: float, system_cpu: float) -> None:
        """Add one reading of each curve; the oldest scrolls out at the left."""
        self._rate.push(rate)
        self._cpu.push(app_cpu)
        self._system_cpu.push(system_cpu)
        rates = self._rate.view()
        self.rate_curve.setData(self._x, rates)
        self.cpu_curve.setData(self._x, self._cpu.view())
        self.system_cpu_curve.setData(self._x, self._system_cpu.view())
        top = _nice_ceiling(float(rates.max()) * 1.15)
        if top != self._rate_top:  # re-layout the axis only when its range really changes
            self._rate_top = top
            self.getPlotItem().setYRange(0, top * AXIS_HEADROOM, padding=0)

    @Slot()
    def _sync_views(self) -> None:
        main = self.getPlotItem().vb
        self.cpu_view.setGeometry(main.sceneBoundingRect())
        self.cpu_view.linkedViewChanged(main, self.cpu_view.XAxis)


def _nice_ceiling(value: float) -> float:
    """A round axis top at or above ``value`` (10, 20, 50, 100, 200 …), at least 10."""
    top = 10.0
    while top < value:
        for factor in (2.0, 2.5, 2.0):
            top *= factor
            if top >= value:
                break
    return top
