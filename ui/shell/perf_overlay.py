"""Performance HUD: device, TTFT, TPOT, tokens/s, CPU and memory, with a one-minute plot.

CPU and memory are shown twice, labelled: this app's (with its child processes) and the whole
system's, both as shares of the machine, so "CPU 90 %" is never ambiguous.

Polls the Qt-free metrics bus and a psutil sampler from a 4 Hz timer that runs only while the
HUD is visible. A tick creates no widgets and allocates no arrays: the plot
(:mod:`ui.shell.perf_plot`) keeps its history in preallocated ring buffers.
:meth:`PerfOverlay.tick` is public so tests and benchmarks can time it (budget: < 2 ms on the
GUI thread).

The HUD floats over a host widget (the panel's main view) and lets mouse events through to
it, so text under it stays selectable; only its small close button takes clicks.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRect, Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QFrame,
    QGridLayout,
    QLabel,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.core import MetricsBus, SystemSampler
from pipelines.core import MetricRecord
from ui.a11y import describe
from ui.i18n import tr
from ui.numbers import data_size, decimal, milliseconds, percent
from ui.shell.perf_plot import PerfPlot, PlotKey

TICK_MS = 250
HISTORY_SECONDS = 60
SAMPLES = HISTORY_SECONDS * 1000 // TICK_MS
MARGIN = 8
BACKGROUND = "#161a20"


def row_titles() -> list[tuple[str, str]]:
    """The HUD's rows: key and caption (translated when the HUD is built)."""
    return [
        ("device", tr("Device")),
        ("ttft", tr("TTFT")),
        ("tpot", tr("TPOT")),
        ("rate_last", tr("Tokens/s (last)")),
        ("rate_live", tr("Tokens/s (live)")),
        ("cpu_app", tr("CPU · this app")),
        ("cpu_system", tr("CPU · whole system")),
        ("rss", tr("Memory · this app")),
        ("ram", tr("Memory · whole system")),
        ("voice", tr("Voice")),
        ("lipsync", tr("Lip-sync")),
        ("lipsync_stages", tr("Lip-sync stages")),
        ("pictures", tr("Pictures")),
        ("picture_stages", tr("Picture stages")),
        ("answer", tr("Spoken answer")),
        ("answer_stages", tr("Spoken answer stages")),
        ("server_active", tr("Server requests")),
        ("server_ttft", "  " + tr("last TTFT")),
        ("server_rate", "  " + tr("last tokens/s")),
    ]


def answer_stages() -> tuple[tuple[str, str], ...]:
    """The spoken answer's stages (app.hands_free.figures), as the overlay names them."""
    return (
        ("stt", tr("STT")),
        ("llm_first_sentence", tr("LLM")),
        ("tts", tr("TTS")),
        ("lipsync", tr("lip-sync")),
    )


def picture_stages() -> tuple[tuple[str, str], ...]:
    """A picture's stages (pipelines.images.stage_metrics), as the overlay names them: the
    text encoder once, the denoiser per step, the VAE's decode."""
    return (
        ("text_encoder_ms", tr("text")),
        ("denoise_step_ms", tr("step")),
        ("vae_decode_ms", tr("VAE")),
    )


def stage_names() -> tuple[tuple[str, str], ...]:
    """The lip-sync job's stages, as the overlay names them."""
    return (
        ("detect", tr("detect")),
        ("mel", tr("mel")),
        ("infer", tr("model")),
        ("compose", tr("paste")),
        ("encode", tr("encode")),
    )


class PerfOverlay(QFrame):
    """An opaque panel pinned to the top-right corner of its host widget."""

    closeRequested = Signal()

    def __init__(
        self,
        metrics: MetricsBus,
        host: QWidget,
        pipeline: str = "chat",
        sampler: SystemSampler | None = None,
    ) -> None:
        super().__init__(host)
        self.setObjectName("perfOverlay")
        # Opaque, in both themes: the answers' action icons and Copy buttons must not show
        # through (square corners: a rounded one would let them peek out there).
        self.setStyleSheet(
            f"#perfOverlay {{ background: {BACKGROUND}; border: 1px solid #3a4450; }}"
            "#perfOverlay QLabel { color: #e8eef5; background: transparent; }"
        )
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setFixedWidth(300)
        self._metrics = metrics
        self._pipeline = pipeline
        self.sampler = sampler or SystemSampler()
        """Where CPU and memory readings come from (replaceable for a staged screenshot)."""
        self._answer_stages = answer_stages()
        self._stage_names = stage_names()
        self.values: dict[str, QLabel] = {}
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 8, 12, 10)
        layout.setSpacing(6)
        title = QLabel(
            "<b>{}</b>  <span style='color:#9fb0c0'>F12</span>".format(tr("Performance"))
        )
        layout.addWidget(title)
        layout.addLayout(self._build_rows())
        layout.addWidget(PlotKey())
        self.plot = PerfPlot(HISTORY_SECONDS, SAMPLES)
        """The last minute of tokens/s and CPU."""
        layout.addWidget(self.plot)
        # The HUD passes clicks through, so the close button is the host's child, kept on top.
        self.close_button = QToolButton(host)
        self.close_button.setText("✕")
        describe(
            self.close_button,
            tr("Hide the performance overlay"),
            tr("Hide the performance overlay (F12)"),
        )
        self.close_button.setAutoRaise(True)
        self.close_button.setStyleSheet("QToolButton { color: #e8eef5; border: none; }")
        self.close_button.clicked.connect(self.closeRequested)
        self.close_button.hide()
        self._timer = QTimer(self)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self.tick)
        self._watched = _resize_source(host)
        self._watched.installEventFilter(self)
        self._follow_pages(host, True)
        self.hide()

    def _build_rows(self) -> QGridLayout:
        grid = QGridLayout()
        grid.setHorizontalSpacing(10)
        grid.setVerticalSpacing(2)
        for row, (key, title) in enumerate(row_titles()):
            value = QLabel("–")
            value.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
            self.values[key] = value
            caption = QLabel(title)
            caption.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
            caption.setStyleSheet("color: #9fb0c0;")
            if key.endswith("_stages"):  # a long line of stage times: smaller, may wrap
                caption.setText("  " + tr("stages"))
                value.setStyleSheet("font-size: 10px;")
                value.setWordWrap(True)
                value.setToolTip(title)
            grid.addWidget(caption, row, 0)
            grid.addWidget(value, row, 1)
        grid.setColumnStretch(1, 1)
        return grid

    @Slot()
    def tick(self) -> None:
        """Read the bus and the system once and update labels and plot."""
        snapshot = self._metrics.snapshot(since=float("inf"))  # latest only, no list copy
        last = snapshot.latest.get(self._pipeline)
        live = snapshot.latest_live.get(self._pipeline)
        sample = self.sampler.sample()
        if last is not None:
            values = last.values
            self.values["device"].setText(last.device)
            self.values["ttft"].setText(_ms(values.get("ttft_ms")))
            self.values["tpot"].setText(_ms(values.get("tpot_ms")))
            self.values["rate_last"].setText(_rate(values.get("tokens_per_s")))
        live_rate = live.values.get("tokens_per_s", 0.0) if live is not None else 0.0
        if live is not None:
            self.values["device"].setText(live.device)
        self.values["rate_live"].setText(_rate(live_rate) if live is not None else tr("idle"))
        self._show_media(snapshot.latest)
        self.values["cpu_app"].setText(percent(sample.process_cpu_percent / 100))
        self.values["cpu_system"].setText(percent(sample.cpu_percent / 100))
        self.values["rss"].setText(data_size(sample.process_rss_bytes))
        self.values["ram"].setText(
            f"{data_size(sample.ram_used_bytes)} / {data_size(sample.ram_total_bytes)}"
        )
        self.plot.push(live_rate, sample.process_cpu_percent, sample.cpu_percent)

    def _show_media(self, latest: dict[str, MetricRecord]) -> None:
        """The last speech synthesis and lip-sync job, each with the device it ran on."""
        speech = latest.get("tts")
        if speech is not None:
            rtf = speech.values.get("rtf", 0.0)
            first = speech.values.get("first_audio_ms", 0.0) / 1000.0
            self.values["voice"].setText(
                tr("RTF {rtf} · first {first} s · {device}").format(
                    rtf=decimal(rtf, 2), first=decimal(first, 2), device=speech.device
                )
            )
        video = latest.get("lipsync")
        if video is not None:
            fps = video.values.get("fps", 0.0)
            self.values["lipsync"].setText(
                tr("{fps} frames/s · {device}").format(fps=decimal(fps, 1), device=video.device)
            )
            parts = [
                f"{label} {decimal(video.values[f'{key}_ms'], 0)}"
                for key, label in self._stage_names
                if f"{key}_ms" in video.values
            ]
            self.values["lipsync_stages"].setText(" · ".join(parts) + " ms" if parts else "–")
        drawn = latest.get("images")
        if drawn is not None and "generate_ms" in drawn.values:  # a picture's, not a load's
            self._show_pictures(drawn)
        answer = latest.get("conversation")
        if answer is not None:
            self._show_answer(answer.values)
        served = latest.get("server")
        if served is not None and "ttft_ms" in served.values:  # a request's, not a load's
            self._show_server(served.values)

    def _show_pictures(self, record: MetricRecord) -> None:
        """The last picture job: seconds a picture, where each stage ran, and the stages."""
        values = record.values
        seconds = values["generate_ms"] / 1000.0 / max(values.get("images", 1.0), 1.0)
        self.values["pictures"].setText(
            tr("{seconds} s a picture · {device}").format(
                seconds=decimal(seconds, 1), device=record.device
            )
        )
        parts = [
            f"{label} {decimal(values[key], 0)}" for key, label in picture_stages() if key in values
        ]
        self.values["picture_stages"].setText(" · ".join(parts) + " ms" if parts else "–")

    def _show_server(self, values: dict[str, float]) -> None:
        """The local server's last request: requests still running when it ended, its time
        to first token and its rate."""
        active = round(values.get("active_requests", 0.0))
        self.values["server_active"].setText(tr("%n active", "", active))
        self.values["server_ttft"].setText(_ms(values.get("ttft_ms")))
        self.values["server_rate"].setText(_rate(values.get("tokens_per_s")))

    def _show_answer(self, values: dict[str, float]) -> None:
        """The last spoken answer: from the end of the user's speech to its first audio and
        first lip-synced frame, and the stages on the way."""
        reached = [
            f"{label} {decimal(values[key] / 1000.0, 2)} s"
            for key, label in (("first_audio_ms", tr("audio")), ("first_frame_ms", tr("frame")))
            if key in values
        ]
        self.values["answer"].setText(" · ".join(reached) or "–")
        stages = [
            f"{label} {decimal(values[f'{key}_ms'], 0)}"
            for key, label in self._answer_stages
            if f"{key}_ms" in values
        ]
        self.values["answer_stages"].setText(" · ".join(stages) + " ms" if stages else "–")

    @property
    def polling(self) -> bool:
        """Whether the 4 Hz timer is running (only while the HUD is shown)."""
        return bool(self._timer.isActive())

    def set_host(self, host: QWidget) -> None:
        """Float over ``host`` instead (another panel became current)."""
        old = self.parentWidget()
        if old is host:
            return
        visible = self.isVisible()
        self._watched.removeEventFilter(self)
        if old is not None:
            self._follow_pages(old, False)
        self._follow_pages(host, True)
        self.setParent(host)
        self.close_button.setParent(host)
        self._watched = _resize_source(host)
        self._watched.installEventFilter(self)
        self.setVisible(visible)

    def event(self, event: QEvent) -> bool:
        """Poll only while visible: an invisible overlay costs nothing."""
        # event(), not showEvent()/hideEvent(): see ui.chat.input_box.ChatInput.event.
        if event.type() == QEvent.Type.Show:
            self._place()
            self.tick()
            self._timer.start()
            self.close_button.show()
        elif event.type() == QEvent.Type.Hide:
            self._timer.stop()
            self.close_button.hide()
        return super().event(event)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Follow the host's size to stay in its top-right corner."""
        if event.type() == QEvent.Type.Resize and watched is self._watched:
            self._place()
        return False

    def _follow_pages(self, host: QWidget, follow: bool) -> None:
        """Over a stack of pages (the chat's welcome page and answers), move when the page
        changes: the scroll bar to keep uncovered is the new page's."""
        if not isinstance(host, QStackedWidget):
            return
        if follow:
            host.currentChanged.connect(self._on_page_changed)
        else:
            host.currentChanged.disconnect(self._on_page_changed)

    @Slot(int)
    def _on_page_changed(self, _index: int) -> None:
        if self.isVisible():
            self._place()

    def _place(self) -> None:
        host = self.parentWidget()
        if host is None:
            return
        area: QRect = host.rect()
        shown = host.currentWidget() if isinstance(host, QStackedWidget) else host
        if isinstance(shown, QAbstractScrollArea):
            # Keep the scroll bar uncovered (of the page a stack shows: the chat's answers).
            viewport = shown.viewport().geometry()
            area = QRect(shown.mapTo(host, viewport.topLeft()), viewport.size())
        self.adjustSize()
        self.move(area.x() + area.width() - self.width() - MARGIN, area.y() + MARGIN)
        self.close_button.adjustSize()
        self.close_button.move(
            self.geometry().right() - self.close_button.width() - 4, self.y() + 4
        )
        self.raise_()
        self.close_button.raise_()


def _resize_source(host: QWidget) -> QWidget:
    """The widget whose resize moves the HUD.

    A scroll area lays out its viewport after its own resize event (which filters see first),
    so the viewport's resize is the moment the new geometry is known.
    """
    return host.viewport() if isinstance(host, QAbstractScrollArea) else host


def _ms(value: float | None) -> str:
    return "–" if not value else milliseconds(value, 1)


def _rate(value: float | None) -> str:
    return "–" if not value else decimal(value, 1)
