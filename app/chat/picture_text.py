"""The text in a picture attached to a chat message (OCR), for the message box.

A text-only model cannot see an attachment, but the text in it (a screenshot, a photographed
receipt) can go into the question. The reader is Knowledge's: :mod:`pipelines.ocr` (rapidocr's
PP-OCRv6 on OpenVINO) on the ``ocr_device`` setting, resolved the same way
(:func:`app.knowledge.page_reading.ocr_config`).

The reader loads at the first picture (a second or two on the CPU) and stays loaded while the
app runs, as the engine host keeps a task's engine: the same device reuses it, a changed
``ocr_device`` drops it and loads it on the new device at the next picture, and :meth:`close`
(the app closing) releases it. It is not an engine-host task because it has no model choice:
its weights come with the rapidocr package, not from the model registry.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

from app.chat.images import FIELD, PreparedImage, decode_rgb, prepare_image_bytes
from app.core.devices import DeviceInfo
from app.core.errors import BusyError, UserError
from app.core.paths import AppPaths
from app.core.settings_store import SettingsStore
from app.core.texts import tr
from app.knowledge.page_reading import ocr_config
from pipelines.core import Cancelled, CancelToken, Closing
from pipelines.ocr import OcrConfig, OcrReader


class NoTextFoundError(UserError):
    """The picture holds no text the reader could find (field ``images``)."""

    default_field = FIELD


ReaderFactory = Callable[[OcrConfig], OcrReader]


class PictureText(Closing):
    """Reads the text of chat attachments with one OCR reader kept while the app runs.

    One picture at a time: a second request while one is read is refused (:class:`BusyError`),
    the UI offers one reading at a time.
    """

    def __init__(
        self,
        paths: AppPaths,
        settings: SettingsStore,
        devices: Sequence[DeviceInfo],
        reader_factory: ReaderFactory = OcrReader,
    ) -> None:
        self._paths = paths
        self._settings = settings
        self._devices = list(devices)
        self._reader_factory = reader_factory
        self._reader: OcrReader | None = None
        self._holder_lock = threading.Lock()  # guards _reader (close may come from any thread)
        self._busy = threading.Lock()  # one reading at a time

    @property
    def loaded(self) -> bool:
        """Whether a reader is loaded (the first picture loads it)."""
        reader = self._reader
        return reader is not None and reader.loaded

    def read_text(self, image: PreparedImage, cancel: CancelToken | None = None) -> str:
        """The text in an attachment, one printed line per line, in reading order.

        ``cancel`` is checked before the models load and before the picture is read (the
        reading itself, a second or so, runs to its end).

        Raises:
            NoTextFoundError: nothing readable was found in the picture.
            BusyError: another picture is being read.
            UserError: (field ``images``) the stored copy is damaged.
            Cancelled: ``cancel`` was set.
            ModelLoadError, DeviceError: the OCR models could not be loaded.
        """
        if not self._busy.acquire(blocking=False):
            raise BusyError(
                tr("Another picture is being read; try again when it is done."), field=FIELD
            )
        try:
            pixels = decode_rgb(image.png)
            reader = self._current_reader()
            _check(cancel)
            reader.load()
            _check(cancel)
            text = reader.read(pixels, image.label).text.strip()
        finally:
            self._busy.release()
        if not text:
            raise NoTextFoundError(
                tr("No text was found in {name}.").format(name=image.label), field=FIELD
            )
        return text

    def read_text_bytes(self, data: bytes, label: str, cancel: CancelToken | None = None) -> str:
        """As :meth:`read_text`, for a picture's encoded bytes (``label`` names it).

        Raises:
            UserError: (field ``images``) not an image, damaged (truncated), or too many
                pixels: one sentence, checked from the header before a pixel is decoded.
        """
        return self.read_text(prepare_image_bytes(data, label), cancel)

    def close(self) -> None:
        """Release the models (the app is closing)."""
        with self._holder_lock:
            reader, self._reader = self._reader, None
        if reader is not None:
            reader.close()

    def _current_reader(self) -> OcrReader:
        """The kept reader, or a new one when there is none or ``ocr_device`` changed."""
        config = ocr_config(self._paths, self._settings.settings.ocr_device, self._devices)
        with self._holder_lock:
            old = self._reader
            if old is not None and old.config == config:
                return old
            self._reader = self._reader_factory(config)
            reader = self._reader
        if old is not None:
            old.close()  # a changed device: the old models go before the new ones load
        return reader


def _check(cancel: CancelToken | None) -> None:
    if cancel is not None and cancel.cancelled:
        raise Cancelled()
