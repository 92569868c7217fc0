"""The Chat panel's welcome page: what a first run shows instead of an empty chat.

Two or three chat models recommended for this computer (``app.models.recommend``), each with
its size and a one-click Download (the model manager's job: ``download_entry`` on the window's
TaskRunner, one download at a time), progress and Cancel; "Open a model file or folder…" (the
Ctrl+O flow); the whole catalog (File → Models…); and where models are stored. Nothing here
names a command: a first run needs no terminal.
"""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QFrame,
    QLabel,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.core import DeviceInfo, UserError
from app.models import (
    CatalogEntry,
    DownloadProgress,
    InstalledModel,
    ModelRegistry,
    ModelTask,
    Recommendation,
    download_entry,
    installed_copy,
    load_catalog,
    machine_facts,
    nothing_fits,
    recommend_models,
    recommend_picture_model,
)
from pipelines.core import Cancelled
from ui.a11y import announce, describe
from ui.i18n import tr, translated
from ui.icons import set_icon
from ui.models.manager import DOWNLOAD_JOB, download_text
from ui.numbers import data_size
from ui.shell.error_router import ErrorRouter
from ui.shell.notifications import NotificationBar
from ui.tasks import TaskRunner
from ui.widgets.inline_error import InlineError
from ui.widgets.layouts import hbox, vbox

STOPPED = "Stopped; nothing was installed. What arrived is kept, so Download resumes it."
PAGE_WIDTH = 760


class WelcomePage(QScrollArea):
    """Recommended models with one-click download, "open a model", and the models folder."""

    modelReady = Signal(object)  # InstalledModel: downloaded (or installed before), to load
    openRequested = Signal()  # "Open a model file or folder…"
    browseRequested = Signal()  # "All models…" (the model manager)
    panelRequested = Signal(str)  # an image model downloaded or opened: the Create panel

    def __init__(
        self,
        models: ModelRegistry,
        devices: list[DeviceInfo],
        tasks: TaskRunner,
        notifications: NotificationBar,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.models = models
        self.devices = devices
        self.tasks = tasks
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.recommendations: list[Recommendation] = []
        self.download_buttons: list[QPushButton] = []
        self.downloading_entry: CatalogEntry | None = None
        self.error = InlineError()
        self.errors = ErrorRouter(notifications, {"model": self.error})
        self.cards = QVBoxLayout()
        self.cards.setSpacing(10)
        self.progress = QProgressBar()
        describe(self.progress, tr("Download progress"))
        self.cancel_button = QPushButton(tr("Cancel"))
        set_icon(self.cancel_button, "stop")
        describe(
            self.cancel_button,
            tr("Cancel download"),
            tr("Stop the download; what arrived is kept for later"),
        )
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.open_button = QPushButton(tr("Open a model file or folder…"))
        set_icon(self.open_button, "folder-open")
        describe(
            self.open_button,
            tr("Open a model file or folder"),
            tr("A .gguf file, or an OpenVINO model folder (Ctrl+O)"),
        )
        self.browse_button = QPushButton(tr("All models…"))
        set_icon(self.browse_button, "view-list")
        describe(
            self.browse_button,
            tr("All models"),
            tr("The whole catalog: chat, vision, speech (File → Models…)"),
        )
        self.storage = QLabel()
        self.storage.setWordWrap(True)
        self.storage.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._layout()
        self.cancel_button.clicked.connect(self.cancel)
        self.open_button.clicked.connect(self.openRequested)
        self.browse_button.clicked.connect(self.browseRequested)
        self._show_progress(False)
        self.refresh()

    def _layout(self) -> None:
        title = QLabel("<h2>" + tr("Welcome to OV Studio") + "</h2>")
        intro = QLabel(
            tr(
                "Choose a chat model to start. It is downloaded once and then runs on this "
                "computer: your conversations never leave it."
            )
        )
        intro.setWordWrap(True)
        have = QLabel(tr("Already have a model?"))
        page = QWidget()
        page.setMaximumWidth(PAGE_WIDTH)
        column = vbox(
            title,
            intro,
            self.cards,
            hbox((self.progress, 1), self.cancel_button, margins=0),
            self.status,
            self.error,
            hbox(have, self.open_button, self.browse_button, 1, margins=0),
            self.storage,
            1,
            parent=page,
            spacing=10,
        )
        column.setContentsMargins(24, 16, 24, 16)
        outer = QWidget()
        vbox(hbox(1, (page, 4), 1, margins=0), parent=outer, margins=0)
        self.setWidget(outer)

    @Slot()
    def refresh(self) -> None:
        """Recommend again (after a download, or when the free space changed)."""
        models_dir = self.models.models_dir
        self.storage.setText(tr("Models are stored in {folder}").format(folder=models_dir))
        machine = machine_facts((d.kind for d in self.devices), models_dir)
        try:
            catalog = load_catalog()
        except UserError as error:
            catalog = []
            self.error.show_message(str(error))
        self.recommendations = recommend_models(catalog, machine)
        _clear(self.cards)
        self.download_buttons = []
        installed = self.models.models(ModelTask.CHAT)
        for recommendation in self.recommendations:
            copy = installed_copy(installed, recommendation.entry)
            self.cards.addWidget(self._card(recommendation, copy))
        if catalog and not self.recommendations:
            self.cards.addWidget(_wrapped(translated(nothing_fits(catalog, machine, models_dir))))
        pictures = recommend_picture_model(catalog, machine)
        if pictures is not None:  # the first hour: pictures as well as answers
            self.cards.addWidget(QLabel("<b>" + tr("Make pictures too") + "</b>"))
            drawers = self.models.models(ModelTask.IMAGE_GENERATION)
            self.cards.addWidget(self._card(pictures, installed_copy(drawers, pictures.entry)))
        self._update_buttons()

    def _card(self, recommendation: Recommendation, installed: InstalledModel | None) -> QFrame:
        entry = recommendation.entry
        card = QFrame()
        card.setFrameShape(QFrame.Shape.StyledPanel)
        name = QLabel(f"<b>{entry.name}</b> · {data_size(entry.size_bytes)} · {entry.licence}")
        name.setToolTip(entry.hub_id)
        reason = _wrapped(translated(recommendation.reason))
        about = _wrapped(translated(entry.description))
        size = data_size(entry.size_bytes)
        if installed is None:
            button = QPushButton(tr("Download"))
            set_icon(button, "download")
            describe(
                button,
                tr("Download {name}").format(name=entry.name),
                tr("Download {name} ({size}) and open it").format(name=entry.name, size=size),
            )
            button.clicked.connect(partial(self.download, entry))
        else:  # installed already (another day, or from File → Models…): no second download
            button = QPushButton(tr("Open", "verb"))
            set_icon(button, "play")
            describe(
                button,
                tr("Open {name}").format(name=entry.name),
                tr("Installed in {folder}").format(folder=installed.folder),
            )
            button.clicked.connect(partial(self.open_installed, installed))
        self.download_buttons.append(button)
        text = QWidget()
        vbox(name, reason, about, parent=text, margins=0, spacing=4)
        row = hbox((text, 1), (button, 0, Qt.AlignmentFlag.AlignVCenter), margins=10, spacing=12)
        card.setLayout(row)
        return card

    def open_installed(self, model: InstalledModel) -> None:
        """Load ``model``, a recommendation installed already (an image model: the Create
        panel, which draws with the installed one)."""
        self.error.clear()
        self._ready(model)

    def _ready(self, model: InstalledModel) -> None:
        if model.task is ModelTask.IMAGE_GENERATION:
            self.panelRequested.emit("Create")
        else:
            self.modelReady.emit(model)

    def download(self, entry: CatalogEntry) -> bool:
        """Download ``entry`` in a worker; False (said here) when another download runs."""
        self.error.clear()
        task = self.tasks.start_with_progress(
            partial(download_entry, self.models, entry),
            kind=DOWNLOAD_JOB,
            on_progress=self._on_progress,
            on_done=self._on_downloaded,
            on_error=self._on_failed,
        )
        if task is None:
            self.error.show_message(
                tr("Another model is downloading; wait for it to finish or stop it first.")
            )
            return False
        self.downloading_entry = entry
        self.status.setText(tr("Connecting to download {name}…").format(name=entry.name))
        self.progress.setRange(0, 0)
        self._show_progress(True)
        self._update_buttons()
        return True

    @property
    def downloading(self) -> bool:
        """Whether a model download runs (from here or the model manager)."""
        return self.tasks.running(DOWNLOAD_JOB)

    @Slot()
    def cancel(self) -> None:
        """Stop the download; nothing is installed (what arrived is kept to resume)."""
        self.tasks.cancel(DOWNLOAD_JOB)
        self.status.setText(tr("Stopping…"))
        self.cancel_button.setEnabled(False)

    @Slot(object)
    def _on_progress(self, progress: DownloadProgress) -> None:
        self.progress.setRange(0, 1000)
        self.progress.setValue(int(1000 * progress.fraction))
        self.status.setText(download_text(progress))

    @Slot(object)
    def _on_downloaded(self, model: InstalledModel) -> None:
        self._end(tr("Installed {name}; opening it…").format(name=model.id))
        self.refresh()  # its card now says Open
        self._ready(model)

    @Slot(object)
    def _on_failed(self, error: BaseException) -> None:
        if isinstance(error, Cancelled):
            self._end(
                tr("Stopped; nothing was installed. What arrived is kept, so Download resumes it.")
            )
            return
        self._end("")
        self.errors.show(error, default_field="model")

    def _end(self, message: str) -> None:
        self.downloading_entry = None
        self._show_progress(False)
        self.status.setText(message)
        announce(self.status, message)
        self._update_buttons()

    def _show_progress(self, shown: bool) -> None:
        self.progress.setVisible(shown)
        self.cancel_button.setVisible(shown)
        self.cancel_button.setEnabled(shown)

    def _update_buttons(self) -> None:
        busy = self.downloading_entry is not None
        for button in self.download_buttons:
            button.setEnabled(not busy)


def _wrapped(text: str) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    return label


def _clear(layout: QVBoxLayout) -> None:
    """Remove and delete the cards of an earlier :meth:`WelcomePage.refresh`."""
    while layout.count():
        item = layout.takeAt(0)
        widget = item.widget() if item is not None else None
        if widget is not None:
            widget.deleteLater()
