"""The voice library as a list: name, clip length, date, likeness; rename in place, delete,
play the clip.

The likeness column says how alike each voice's speech sounds to its clip ("sounds 0.83 like
the clip", :mod:`app.voice.likeness`), so users can compare clips and engines; the panel
fills it as the figures are measured in the background.

The list only shows and asks (signals); the panel does the work and calls
:meth:`VoiceList.set_voices` again. A voice whose reference clip was deleted still speaks;
it carries a warning icon and says why its clip cannot be played. A damaged voice (its files
unreadable or not what the app writes) is listed after the others, greyed, with why it is
damaged; it cannot be played, renamed or spoken with, only deleted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PySide6.QtCore import QDateTime, QLocale, QPoint, Qt, Signal, Slot
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QLabel,
    QMenu,
    QPushButton,
    QStackedWidget,
    QStyle,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.voice import DamagedVoice, Voice
from ui.a11y import describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.numbers import decimal
from ui.voice.audio_widgets import no_audio_device
from ui.voice.status_area import StatusArea
from ui.widgets.empty_state import EmptyState
from ui.widgets.flow_layout import flow_row
from ui.widgets.inline_error import InlineError
from ui.widgets.list_tree import make_list_tree, rename_action, tree_items, wanted_rename
from ui.widgets.model_needed import ModelNeeded

NAME_ROLE = Qt.ItemDataRole.UserRole
DAMAGED_ROLE = Qt.ItemDataRole.UserRole + 1
"""On a damaged voice's row: its folder's name (what :meth:`VoiceLibrary.remove_damaged` takes)."""
ID_ROLE = Qt.ItemDataRole.UserRole + 2
"""On a usable voice's row: its folder's name (the key of its likeness figure)."""
LIKENESS_COLUMN = 3


def damaged_text() -> str:
    """The clip column of a damaged voice's row."""
    return tr("damaged", "a voice whose files are broken")


def missing_clip() -> str:
    """A voice whose reference clip is gone."""
    return tr("Its reference clip is missing: the voice still speaks, the clip cannot be played.")


def empty_text() -> str:
    """The list with no voice (a speaker encoder is installed)."""
    return tr("No voices yet: a voice is made from 5–30 s of one person speaking.")


def from_file_text() -> str:
    """The empty list's button: a reference clip from a file."""
    return tr("From file…")


def likeness_text(value: float) -> str:
    """A measured likeness as the list says it."""
    return tr("sounds {value} like the clip").format(value=decimal(value, 2))


def measuring_text() -> str:
    """A likeness being measured (or waiting its turn)."""
    return tr("measuring…", "a voice's likeness to its clip")


def likeness_about(encoder: str) -> str:
    """What the figure measures, and with what (the column's tooltip)."""
    return tr(
        "How alike this voice's speech, made by the speech model in use, sounds to the clip it "
        "was made from: the speaker similarity of the two (1 = the same voice; below about 0.75 "
        "it sounds like someone else), measured by {encoder}."
    ).format(encoder=encoder)


def created_text(created: float) -> str:
    """The creation date as a list shows it (local time)."""
    if not created:
        return ""
    moment = QDateTime.fromSecsSinceEpoch(int(created))
    return QLocale().toString(moment, QLocale.FormatType.ShortFormat)


class VoiceList(QWidget):
    """Voices with Play reference / Rename / Delete… and a context menu."""

    selected = Signal(str)
    renameRequested = Signal(str, str)  # current name, wanted name
    deleteRequested = Signal(str)
    deleteDamagedRequested = Signal(str, str)  # a damaged voice: its folder's name, its label
    playRequested = Signal(str)  # play (or stop) the reference clip of a voice

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._filling = False
        self._playing = False
        self._can_play = True
        self.tree = make_list_tree(
            "voiceTree", [tr("Name"), tr("Clip"), tr("Created"), tr("Likeness")], right=(1,)
        )
        describe(self.tree, tr("Voices"), tr("The stored voices; F2 renames the selected one"))
        header = self.tree.header()
        describe(header, tr("Columns"), tr("Click a column to sort the voices by it"))
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        # Where the voices would be, with none: what a voice needs, and the button getting it
        # (the panel says which: a clip, or first the speaker encoder).
        self.empty = EmptyState()
        self.empty.show_need(empty_text())
        self.rows = QStackedWidget()
        self.rows.addWidget(self.tree)
        self.rows.addWidget(self.empty)
        self.play_button = QPushButton(tr("Play reference"))
        set_icon(self.play_button, "play")
        describe(
            self.play_button,
            tr("Play reference"),
            tr("Play the clip the selected voice was made from"),
        )
        self.no_output = QLabel(no_audio_device())
        self.no_output.setToolTip(tr("No audio device: clips cannot be played on this computer."))
        self.rename_button = QPushButton(tr("Rename"))
        set_icon(self.rename_button, "pencil")
        describe(
            self.rename_button,
            tr("Rename"),
            tr("Rename the selected voice (F2, or double-click it)"),
        )
        self.delete_button = QPushButton(tr("Delete…"))
        set_icon(self.delete_button, "delete-outline")
        describe(
            self.delete_button,
            tr("Delete voice"),
            tr("Delete the selected voice and its reference clip"),
        )
        self.error = InlineError()
        self.damaged_note = InlineError(warning=True)
        """Why the selected voice is damaged (its row's tooltip says it too)."""
        self.likeness_needed = ModelNeeded()
        """No speaker-similarity model: the likeness column's one line, with *Download…*."""
        self.likeness_needed.hide()
        self.rename_action = rename_action(self.tree, self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel("<b>" + tr("Voices") + "</b>"))
        layout.addWidget(self.rows, 1)
        layout.addWidget(self.damaged_note)
        buttons = (self.play_button, self.no_output, self.rename_button, self.delete_button)
        layout.addWidget(flow_row(*buttons))  # wraps in a narrow window
        # Under the buttons, never moving them; the missing-model line fits there too.
        layout.addWidget(StatusArea([self.error, self.likeness_needed], lines=2))
        self.play_button.clicked.connect(self._play)
        self.rename_button.clicked.connect(self.start_rename)
        self.rename_action.triggered.connect(self.start_rename)
        self.delete_button.clicked.connect(self._delete)
        self.tree.itemDoubleClicked.connect(self._on_double_clicked)
        self.tree.itemChanged.connect(self._on_item_changed)
        self.tree.currentItemChanged.connect(self._on_current_changed)
        self.tree.customContextMenuRequested.connect(self._context_menu)
        self.set_voices([])

    # ----- what is shown ---------------------------------------------------------------

    def set_voices(
        self, voices: Sequence[Voice], current: str = "", damaged: Sequence[DamagedVoice] = ()
    ) -> None:
        """Show ``voices``, then the ``damaged`` ones greyed; select ``current`` (else the one
        selected, else the first usable voice, else the first damaged one)."""
        wanted = (current or self.current_name()).casefold()
        self._filling = True
        self.tree.blockSignals(True)
        try:
            self.tree.clear()
            chosen: QTreeWidgetItem | None = None
            warning = self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
            for voice in voices:
                item = QTreeWidgetItem(
                    [
                        voice.name,
                        tr("{seconds} s").format(seconds=decimal(voice.reference_seconds, 1)),
                        created_text(voice.created),
                        "",
                    ]
                )
                item.setData(0, NAME_ROLE, voice.name)
                item.setData(0, ID_ROLE, voice.id)
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
                item.setTextAlignment(1, Qt.AlignmentFlag.AlignRight)
                if voice.reference.is_file():
                    item.setToolTip(
                        0,
                        voice.name + "\n" + tr("Reference: {path}").format(path=voice.reference),
                    )
                else:
                    item.setIcon(0, warning)
                    for column in range(LIKENESS_COLUMN):
                        item.setToolTip(column, voice.name + "\n" + missing_clip())
                self.tree.addTopLevelItem(item)
                if chosen is None or voice.name.casefold() == wanted:
                    chosen = item
            for broken in damaged:
                item = self._damaged_item(broken)
                self.tree.addTopLevelItem(item)
                if chosen is None:
                    chosen = item
            if chosen is not None:
                self.tree.setCurrentItem(chosen)
        finally:
            self.tree.blockSignals(False)
            self._filling = False
        self.rows.setCurrentWidget(self.empty if not voices and not damaged else self.tree)
        self._update_buttons()

    def _damaged_item(self, broken: DamagedVoice) -> QTreeWidgetItem:
        """A greyed row that says why (not editable: a damaged voice cannot be renamed)."""
        item = QTreeWidgetItem([broken.label, damaged_text(), "", ""])
        item.setData(0, DAMAGED_ROLE, broken.id)
        item.setIcon(0, self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxCritical))
        item.setTextAlignment(1, Qt.AlignmentFlag.AlignRight)
        grey = self.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
        for column in range(LIKENESS_COLUMN + 1):
            item.setForeground(column, grey)
            item.setToolTip(column, broken.message)
        return item

    def set_likeness(
        self, figures: Mapping[str, float | None], *, measuring: bool, encoder: str
    ) -> None:
        """Show each voice's figure (by voice id); one not measured yet reads "measuring…"
        while ``measuring``, else stays empty (the panel says why: no model)."""
        about = likeness_about(encoder) if encoder else ""
        for item in self.items():
            voice_id = item.data(0, ID_ROLE)
            if voice_id is None:
                continue
            value = figures.get(str(voice_id))
            text = likeness_text(value) if value is not None else ""
            if value is None and measuring and encoder:
                text = measuring_text()
            item.setText(LIKENESS_COLUMN, text)
            item.setToolTip(LIKENESS_COLUMN, about)
            name = str(item.data(0, NAME_ROLE))
            spoken = f"{name}, {text}" if value is not None else name
            item.setData(0, Qt.ItemDataRole.AccessibleTextRole, spoken)

    def likeness_texts(self) -> dict[str, str]:
        """The likeness column by voice name, as the user reads it."""
        return {
            str(item.data(0, NAME_ROLE)): item.text(LIKENESS_COLUMN)
            for item in self.items()
            if item.data(0, NAME_ROLE) is not None
        }

    def current_name(self) -> str:
        """The selected voice ("" when none, or when the selected voice is damaged)."""
        item = self.tree.currentItem()
        name = item.data(0, NAME_ROLE) if item is not None else None
        return str(name) if name is not None else ""

    def current_damaged(self) -> str:
        """The folder name of the selected voice when it is damaged ("" otherwise)."""
        item = self.tree.currentItem()
        voice_id = item.data(0, DAMAGED_ROLE) if item is not None else None
        return str(voice_id) if voice_id is not None else ""

    def items(self) -> list[QTreeWidgetItem]:
        """The rows, top to bottom."""
        return tree_items(self.tree)

    def names(self) -> list[str]:
        """The names shown, top to bottom."""
        return [item.text(0) for item in self.items()]

    def damaged_names(self) -> list[str]:
        """The names shown on damaged rows, top to bottom."""
        return [item.text(0) for item in self.items() if item.data(0, DAMAGED_ROLE) is not None]

    def row_texts(self) -> list[tuple[str, str, str]]:
        """Each row as the user reads it: (name, clip length, created)."""
        return [(item.text(0), item.text(1), item.text(2)) for item in self.items()]

    def set_can_play(self, can_play: bool) -> None:
        """No sound card: Play is disabled and "No audio device" is shown next to it."""
        self._can_play = can_play
        self.no_output.setVisible(not can_play)
        self._update_buttons()

    def set_playing(self, playing: bool) -> None:
        """While a clip plays, Play becomes Stop."""
        self._playing = playing
        self.play_button.setText(tr("Stop") if playing else tr("Play reference"))
        # The name follows the words (describe() set it explicitly at first).
        self.play_button.setAccessibleName(self.play_button.text())
        self._update_buttons()

    # ----- requests --------------------------------------------------------------------

    @Slot()
    def start_rename(self) -> None:
        """Open the selected voice's name for editing (a damaged voice has no name to edit)."""
        item = self.tree.currentItem()
        if item is not None and self.current_name():
            self.tree.editItem(item, 0)

    @Slot(QTreeWidgetItem, int)
    def _on_double_clicked(self, item: QTreeWidgetItem, _: int) -> None:
        if item.data(0, NAME_ROLE) is not None:
            self.tree.editItem(item, 0)

    @Slot(QTreeWidgetItem, int)
    def _on_item_changed(self, item: QTreeWidgetItem, column: int) -> None:
        if self._filling or column != 0:
            return
        old = str(item.data(0, NAME_ROLE))
        wanted = wanted_rename(old, item.text(0))
        if wanted is None:
            self._filling = True
            item.setText(0, old)  # undo stray white space
            self._filling = False
            return
        self.error.clear()
        self.renameRequested.emit(old, wanted)

    @Slot()
    def _play(self) -> None:
        name = self.current_name()
        if name or self._playing:
            self.error.clear()
            self.playRequested.emit(name)

    @Slot()
    def _delete(self) -> None:
        name = self.current_name()
        damaged = self.current_damaged()
        item = self.tree.currentItem()
        if name:
            self.error.clear()
            self.deleteRequested.emit(name)
        elif damaged and item is not None:
            self.error.clear()
            self.deleteDamagedRequested.emit(damaged, item.text(0))

    @Slot(QPoint)
    def _context_menu(self, position: QPoint) -> None:
        item = self.tree.itemAt(position)
        if item is None:
            return
        self.tree.setCurrentItem(item)
        menu = self.context_menu()
        menu.popup(self.tree.viewport().mapToGlobal(position))

    def context_menu(self) -> QMenu:
        """The menu for the selected voice: Play reference, Rename, Delete…."""
        menu = QMenu(self)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        play = menu.addAction(self.play_button.text(), self._play)
        play.setEnabled(self.play_button.isEnabled())
        rename = menu.addAction(tr("Rename"), self.start_rename)
        rename.setEnabled(self.rename_button.isEnabled())
        menu.addAction(tr("Delete…"), self._delete)
        return menu

    @Slot(QTreeWidgetItem, QTreeWidgetItem)
    def _on_current_changed(self, _: QTreeWidgetItem | None, __: QTreeWidgetItem | None) -> None:
        self._update_buttons()
        if not self._filling:
            self.selected.emit(self.current_name())

    def _update_buttons(self) -> None:
        usable = bool(self.current_name())
        item = self.tree.currentItem()
        self.play_button.setEnabled(self._playing or (self._can_play and usable))
        self.rename_button.setEnabled(usable)
        self.rename_action.setEnabled(usable)
        self.delete_button.setEnabled(item is not None)
        damaged = item is not None and not usable
        self.damaged_note.show_message(item.toolTip(0) if damaged and item is not None else "")
