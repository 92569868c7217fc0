"""Which older messages the chat model still reads once a conversation outgrows its context.

**Dropped in blocks, not one message per turn.** GenAI keeps the KV cache of the prompts it has
read (prefix caching, on by default on the CPU) and reuses it for the next prompt as far as the
two begin alike: a turn that only appends to the previous prompt reads just the new messages.
Dropping the oldest message whenever the next turn no longer fitted changed the start of every
prompt once the context was full, so every later turn read the whole window again: on the real
SmolLM2-135M (8,192 tokens) the time to the first token went from about 2 s to 52–93 s a turn.

So when the history no longer fits, it is cut down to :data:`KEEP_SHARE` of the prompt's room
at once; the next turns append to that same beginning until it overflows again. The start is
worked out from the conversation alone — each earlier question as it was sent, then the next
one — so the window's "Context used" line, sending, the CLI and a restarted app agree on it,
and an edited or deleted message moves it as it should. The token counts behind it are
remembered (:class:`RememberedCounts`), so a turn counts only the messages it has not seen.
"""

from __future__ import annotations

import threading
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from app.chat.messages import ChatMessage
from pipelines.generation import Message

TEMPLATE_TOKENS_PER_MESSAGE = 8
"""What the chat template adds around each message (role markers, separators): an estimate
from above (ChatML's ``<|im_start|>user\n … <|im_end|>\n`` is 5 of SmolLM2's tokens)."""

KEEP_SHARE = 0.5
"""What a cut keeps of the prompt's room (system prompt, newest turns, question).

A cut turn reads everything it keeps again, and the turns between two cuts read only their
new messages, but each attends to all before it, so both get dearer the more is kept. Measured
on the real SmolLM2-135M (8,192 tokens, 540-token questions, ``benchmarks/bench_context.py``;
CPU seconds per turn, the least disturbed figure on the busy 2-core machine), against the
turns just before the context filled: dropping one message per turn cost 8.1× on every turn
(the whole window read again: 31–39 s); cutting to 0.5 / 0.6 / 0.75 of the room cost 1.02× /
1.12× / 1.9× on average and 2.2× / 2.8× / 5.4× on the slowest (cut) turn, while the model
read 5,518 / 6,102 / 6,709 tokens on average (7,810 when dropping one message per turn). Half
keeps the turns after the fill as fast as before it and the slowest turn near twice one turn,
for reading 50–100 % of the window instead of 60–100 %. (An earlier run, busier: 7.0×; 0.93× /
1.11× / 1.6×; 2.0× / 2.9× / 4.5×.)
"""

COUNTS_KEPT = 8192
"""Texts whose token counts are remembered: a long conversation's messages several times over,
so a turn never recounts one it has seen, while a day of chatting stays a few MB at most."""


class TokenCounter(Protocol):
    """What the budget needs of a chat pipeline: its token count (the model's own tokenizer,
    or a remote model's estimate)."""

    def count_tokens(self, text: str) -> int:
        """Tokens ``text`` takes."""
        ...


@runtime_checkable
class ChatTemplate(Protocol):
    """A local model's chat template (a remote model's is unknown: its share is estimated)."""

    def template(self, messages: Sequence[Message]) -> str:
        """``messages`` as the model reads them, ready for the answer."""
        ...


class RememberedCounts:
    """A :class:`TokenCounter` that remembers the counts it has made (for one tokenizer).

    Working out where the history starts needs every message's count on every turn; without
    this a 130-turn conversation would go through the tokenizer 260 times per turn.
    Thread-safe: the window counts for its "Context used" line while a worker may send.
    """

    def __init__(self, counter: TokenCounter, capacity: int = COUNTS_KEPT) -> None:
        self.counter = counter
        """The tokenizer's own count."""
        self._capacity = capacity
        self._counts: OrderedDict[str, int] = OrderedDict()
        self._lock = threading.Lock()

    def count_tokens(self, text: str) -> int:
        """Tokens ``text`` takes (counted once, then remembered)."""
        with self._lock:
            known = self._counts.get(text)
            if known is not None:
                self._counts.move_to_end(text)
                return known
            tokens = self.counter.count_tokens(text)
            self._counts[text] = tokens
            if len(self._counts) > self._capacity:
                self._counts.popitem(last=False)
            return tokens


@dataclass(frozen=True)
class KeptHistory:
    """Where the history sent with a question starts, and the tokens it takes."""

    first: int
    """Index of the oldest message sent (``len(messages)``: none of them)."""
    tokens: int
    """Tokens of ``messages[first:]`` with the template's share of each."""


def message_tokens(count: TokenCounter, text: str) -> int:
    """Tokens of one message as the chat template lays it out (an estimate from above)."""
    return count.count_tokens(text) + TEMPLATE_TOKENS_PER_MESSAGE


def frame_tokens(count: TokenCounter, template: ChatTemplate | None, system_prompt: str) -> int:
    """Tokens of a prompt with ``system_prompt`` and an empty question: the system prompt and
    what the template itself adds — role markers, the answer's opening, and the default system
    prompt some templates put in when there is none (SmolLM2's is 20 tokens). Counted through
    ``template`` when the model's is known, else estimated."""
    if template is None:
        system = message_tokens(count, system_prompt) if system_prompt else 0
        return system + TEMPLATE_TOKENS_PER_MESSAGE
    messages = [Message("system", system_prompt)] if system_prompt else []
    return count.count_tokens(template.template([*messages, Message("user", "")]))


def kept_history(
    messages: Sequence[ChatMessage],
    count: TokenCounter,
    room: int,
    frame: int,
    question_tokens: int,
) -> KeptHistory:
    """The part of ``messages`` (the conversation before the next question) sent with it.

    ``room``: tokens the whole prompt may take (the context less the answer's room);
    ``frame``: the system prompt and the template's own text (:func:`frame_tokens`), and
    ``question_tokens``: the next question's text (both always sent). Each earlier question
    is replayed as it was sent: the history kept with it starts where the previous one did,
    unless it overflowed ``room``; then it starts at the oldest question from which the
    prompt takes at most :data:`KEEP_SHARE` of ``room`` (or, when even the last turn takes
    more, at the oldest from which it fits at all).

    Once older messages are left out, the history starts at a question (some chat templates
    refuse a conversation whose first message after the system prompt is an answer), or is
    empty.
    """
    sums = [0]  # sums[i]: tokens of messages[:i]
    for message in messages:
        sums.append(sums[-1] + message_tokens(count, message.content))
    questions = [i for i, message in enumerate(messages) if message.role == "user"]
    keep = int(room * KEEP_SHARE)

    def start(first: int, end: int, fixed: int) -> int:
        """Where the history before ``messages[end]`` starts when the previous one started
        at ``first``."""
        if sums[end] - sums[first] <= room - fixed:
            return first  # still fits: the prompt begins as the previous one did
        fitting = end  # the oldest question the history fits from at all
        for position in range(bisect_right(questions, first), len(questions)):
            candidate = questions[position]
            if candidate >= end:
                break
            tokens = sums[end] - sums[candidate]
            if tokens <= keep - fixed:
                return candidate
            if tokens <= room - fixed:
                fitting = min(fitting, candidate)
        # Not even the last turn fits in the share kept (a small context, a long turn): the
        # newest turns that fit at all, rather than none.
        return fitting

    first = 0
    for index in questions:
        first = start(first, index, frame + count.count_tokens(messages[index].content))
    first = start(first, len(messages), frame + question_tokens)
    return KeptHistory(first, sums[-1] - sums[first])
