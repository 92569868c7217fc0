"""Reading text in pictures of pages (OCR): rapidocr's models on OpenVINO.

No Qt and no settings here: the caller passes the device (already resolved) in an
:class:`OcrConfig`, loads one :class:`OcrReader` and hands it page after page.
"""

from pipelines.ocr.layout import TextBox
from pipelines.ocr.orientation import Upright
from pipelines.ocr.reader import MAX_PAGE_PIXELS, OcrConfig, OcrPage, OcrReader, fit_pixels

__all__ = [
    "MAX_PAGE_PIXELS",
    "OcrConfig",
    "OcrPage",
    "OcrReader",
    "TextBox",
    "Upright",
    "fit_pixels",
]
