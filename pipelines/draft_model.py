"""The draft model of speculative decoding: an OpenVINO LLM folder, or a GGUF file converted
into the converted-model cache, checked to share the main model's tokenizer.

``ov_genai.draft_model()`` takes an OpenVINO IR folder only, so a ``.gguf`` draft is opened
through :func:`pipelines.gguf_cache.open_gguf` (converted once, kept converted) and its cache
folder is what GenAI gets. GenAI itself refuses a draft whose tokenizer differs from the main
model's (``are_tokenizers_equal`` in speculative_decoding/.../fast_draft_strategy.cpp, one probe
text and the special tokens) with an assertion; :func:`check_same_tokenizer` asks the same
question more thoroughly, before the main model is built, and answers with a sentence.

REPL use::

    folder = draft_folder(Path("SmolLM2-135M.gguf"), Path("~/.cache/converted"))
    check_same_tokenizer(Path("main-model-ir"), folder, "SmolLM2-360M", "SmolLM2-135M.gguf")
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from pipelines.core import InvalidInputError, PipelineError
from pipelines.gguf import is_gguf_path
from pipelines.gguf_cache import IR_FILES, open_gguf
from pipelines.openvino_errors import openvino_reason

log = logging.getLogger(__name__)

#: Texts whose token ids must match between the two tokenizers: several scripts, digits,
#: code and whitespace, so two vocabularies that agree on English only still differ.
PROBE_TEXTS = (
    "Could you please tell me something about OpenVINO.GenAI?",
    "Über straße, naïve café — 12345 + 678 = 13023.",
    "Привет, мир! Καλημέρα κόσμε. 你好，世界。こんにちは。",
    "def f(x):\n    return {'a': [x, 2.5e-3]}  # done\t",
)


def draft_folder(path: Path, converted_dir: Path | None) -> Path:
    """The OpenVINO folder to give ``ov_genai.draft_model`` for the draft the user chose.

    Raises:
        InvalidInputError: (field ``draft_model``) not there, not a model, or a GGUF file
            that cannot be converted (or no converted-model cache to keep it in).
    """
    if "\x00" in str(path):
        raise InvalidInputError("The draft model's path is not a valid path.", field="draft_model")
    path = path.expanduser()
    if not path.exists():
        raise InvalidInputError(f"The draft model {path} does not exist.", field="draft_model")
    if is_gguf_path(path) and path.is_file():
        return _converted(path, converted_dir)
    if path.is_dir():
        missing = [name for name in IR_FILES if not (path / name).is_file()]
        if not missing:
            return path
        raise InvalidInputError(
            f"The draft model {path.name} is not an OpenVINO chat model folder (it lacks "
            f"{', '.join(missing)}).",
            field="draft_model",
        )
    raise InvalidInputError(
        f"The draft model {path.name} is neither an OpenVINO model folder nor a .gguf file.",
        field="draft_model",
    )


def _converted(path: Path, converted_dir: Path | None) -> Path:
    """The converted-cache folder of the GGUF draft ``path`` (converting it first if needed).

    The first :func:`open_gguf` converts by building a pipeline with ``enable_save_ov_model``
    (the only way GenAI writes the IR); the second finds it in the cache and hands its folder
    to the loader, which then only reports where it is.
    """
    if converted_dir is None:
        raise InvalidInputError(
            "A GGUF draft model needs the converted-model cache, which is not available here; "
            "choose an OpenVINO model folder.",
            field="draft_model",
        )
    found: list[Path] = []

    def locate(folder: Path, extra: dict[str, Any]) -> Any:
        if extra.get("enable_save_ov_model"):
            return _build_to_convert(folder, extra)
        found.append(folder)
        return folder

    try:
        opened = open_gguf(path, converted_dir, locate)
        if not opened.from_cache:
            found.clear()
            opened = open_gguf(path, converted_dir, locate)
    except PipelineError as error:
        raise InvalidInputError(
            f"The draft model {path.name} cannot be used: {error}", field="draft_model"
        ) from error
    if not opened.from_cache or not found or found[-1].suffix == ".gguf":
        # The cache could not keep the conversion (a read-only or full disk): there is no
        # folder to give GenAI.
        raise InvalidInputError(
            f"The draft model {path.name} could not be kept converted: "
            + " ".join(opened.notes or ("the converted-model cache is not writable.",)),
            field="draft_model",
        )
    return found[-1]


def _build_to_convert(path: Path, extra: dict[str, Any]) -> Any:
    """Build the GGUF draft once, on the CPU, so GenAI writes its IR beside ``path``."""
    import openvino_genai as ov_genai

    try:
        return ov_genai.LLMPipeline(str(path), "CPU", **extra)
    except RuntimeError as error:
        # open_gguf tries the next reader on InvalidInputError, and words the last failure.
        raise InvalidInputError(openvino_reason(error), field="draft_model") from error


def check_same_tokenizer(main: Any, draft: Path, main_name: str, draft_name: str) -> None:
    """Refuse a draft whose tokenizer is not the main model's.

    ``main`` is the main model's OpenVINO folder or an ``ov_genai.Tokenizer``; ``draft`` the
    draft's folder. Compared: the token ids of :data:`PROBE_TEXTS`, the special tokens' ids and
    their strings.

    Raises:
        InvalidInputError: (field ``draft_model``) the tokenizers differ, or the draft's cannot
            be read.
    """
    import openvino_genai as ov_genai

    try:
        ours = main if isinstance(main, ov_genai.Tokenizer) else ov_genai.Tokenizer(str(main))
        theirs = ov_genai.Tokenizer(str(draft))
    except RuntimeError as error:
        raise InvalidInputError(
            f"The tokenizer of the draft model {draft_name} cannot be read: "
            f"{openvino_reason(error)}",
            field="draft_model",
        ) from error
    if _fingerprint(ours) != _fingerprint(theirs):
        raise InvalidInputError(
            f"{draft_name} uses a different tokenizer from {main_name}: a draft model must "
            "come from the same family.",
            field="draft_model",
        )


def _fingerprint(tokenizer: Any) -> tuple[Any, ...]:
    """What two tokenizers must share for draft tokens to mean the same to the main model."""
    ids = tuple(
        tuple(int(i) for i in tokenizer.encode(text).input_ids.data.ravel()) for text in PROBE_TEXTS
    )
    special = (
        tokenizer.get_bos_token_id(),
        tokenizer.get_eos_token_id(),
        tokenizer.get_pad_token_id(),
        tokenizer.get_bos_token(),
        tokenizer.get_eos_token(),
        tokenizer.get_pad_token(),
    )
    # Not the vocabulary itself: get_vocab() fails on byte-level vocabularies (tokens that are
    # not UTF-8 on their own), and the probes' ids already tell two vocabularies apart.
    return ids, special
