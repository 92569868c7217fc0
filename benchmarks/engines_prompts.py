"""Prompts of an exact token length, unique from their first token, the same for both engines.

OpenVINO GenAI's PagedAttention path caches prompt prefixes by default and llama-cpp-python
reuses the longest common prefix of the previous prompt: each prompt of a run starts with its
own random words (in the system message, the first text after the template's role header), so
neither engine can reuse a single block of an earlier prompt. The lengths are measured with the
GGUF's own tokenizer and chat template (llama.cpp, vocabulary only); both engines report the
token count they actually saw.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

Messages = list[dict[str, str]]

WORD_LIST = """
    apple river stone cloud music garden paper window silver forest candle bridge ocean pencil
    mountain letter summer winter market village engine island meadow harbor station lantern
    basket valley thunder feather mirror blanket kitchen castle planet rocket ticket pocket
    button carpet dragon falcon jungle ladder magnet needle orange parrot puzzle rabbit saddle
    tunnel violin wallet yellow zebra anchor bottle camera desert eagle finger guitar hammer
    insect jacket kettle lemon marble nickel oyster pepper quartz ribbon spider tomato umbrella
    velvet walnut copper breeze cactus dolphin ember frost glacier hazel iris jasmine kiwi lotus
    maple nectar olive pebble quiver raven sparrow tulip willow
"""
WORDS = tuple(WORD_LIST.split())


def words(rng: random.Random, count: int) -> list[str]:
    return [rng.choice(WORDS) for _ in range(count)]


def prompt(tokens: int, seed: int, count: Callable[[Messages], int]) -> Messages:
    """Messages whose templated prompt is at most ``tokens`` tokens long, as close as words
    allow (each word is one or two tokens), unique to ``seed`` from the first word."""
    rng = random.Random(seed)
    system = "Notes " + " ".join(words(rng, 6)) + "."
    body = words(rng, tokens)

    def build(n: int) -> Messages:
        text = " ".join(body[:n]) + "\nWrite a long story that uses these words."
        return [{"role": "system", "content": system}, {"role": "user", "content": text}]

    low, high = 0, len(body)
    while low < high:
        middle = (low + high + 1) // 2
        if count(build(middle)) <= tokens:
            low = middle
        else:
            high = middle - 1
    return build(low)


class TokenCounter:
    """Templated prompt length with the GGUF's tokenizer (llama.cpp, vocabulary only)."""

    def __init__(self, gguf: Path) -> None:
        from llama_cpp import Llama

        self.llm: Any = Llama(str(gguf), vocab_only=True, verbose=False)
        self.formatter = chat_formatter(self.llm)

    def __call__(self, messages: Messages) -> int:
        text = self.formatter(messages=messages).prompt
        return len(self.llm.tokenize(text.encode(), add_bos=True, special=True))


def chat_formatter(llm: Any) -> Any:
    """llama-cpp-python's formatter for the GGUF's own chat template (what its chat API uses)."""
    from llama_cpp.llama_chat_format import Jinja2ChatFormatter

    special = llm.detokenize
    return Jinja2ChatFormatter(
        llm.metadata["tokenizer.chat_template"],
        eos_token=special([llm.token_eos()], special=True).decode(),
        bos_token=special([llm.token_bos()], special=True).decode(),
    )
