"""Names transformers 5 removed that the conversion libraries still import, answered in the
conversion process.

diffusers 0.36 imports ``transformers.MT5Tokenizer`` (HunyuanDiT's pipelines), which
transformers 5 folded into ``T5Tokenizer``; optimum-intel 2.1 imports diffusers' pipelines
whenever diffusers is installed — ``optimum.intel.openvino`` does, so every ``optimum-cli
export openvino`` fails with "cannot import name 'MT5Tokenizer'", a chat model's as much as an
image model's. diffusers 0.37 fixes the import but needs huggingface_hub 2 and safetensors 0.8,
which optimum-intel 2.1 and transformers 5.5 cannot run with. So the conversion entry points
(:mod:`app.models.optimum_cli`, :mod:`app.models.convert_job`) call :func:`answer_removed_names`
first.

The name is answered by the lazy module's class, not set on the module: transformers replaces
its module object while diffusers imports, and an attribute set on the first one is lost.
"""

from __future__ import annotations

import importlib.util
from types import ModuleType

REMOVED_NAMES = {"MT5Tokenizer": "T5Tokenizer", "MT5TokenizerFast": "T5TokenizerFast"}
"""What transformers 5 no longer has → what stands for it."""


def answer_removed_names() -> bool:
    """Make ``from transformers import MT5Tokenizer`` work again (no-op where transformers is
    absent or still has the names); whether a shim was installed."""
    if importlib.util.find_spec("transformers") is None:
        return False
    import transformers

    if all(hasattr(transformers, name) for name in REMOVED_NAMES):
        return False
    lazy = type(transformers)
    original = lazy.__getattr__
    if getattr(original, "answers_removed_names", False):
        return True

    def answer(module: ModuleType, name: str) -> object:
        if module.__name__ == "transformers" and name in REMOVED_NAMES:
            name = REMOVED_NAMES[name]
        return original(module, name)

    answer.answers_removed_names = True  # type: ignore[attr-defined]
    lazy.__getattr__ = answer  # type: ignore[method-assign]
    return True
