"""Tool results inside the context window.

The conversation sent with a question was fitted to the model's context before any tool ran
(:meth:`~app.chat.context_window.ContextBudget.fit`); the tool loop then adds results to the
question — up to :data:`~app.chat.tool_loop.MAX_CALLS` of them, each possibly long. On a
small-context model that would overflow, so every prompt the loop sends is fitted again here,
counted with the model's tokenizer:

1. the results may take up to :data:`RESULTS_SHARE` of the room left after the system prompt
   and the question's own text — older turns are dropped (oldest first) to give them that;
2. whatever the results still do not fit in is cut from their ends, each cut marked in the
   quoted block with :data:`~app.tool_calls.prompting.SHORTENED`, the longest results cut first.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from app.chat.history import TEMPLATE_TOKENS_PER_MESSAGE, TokenCounter
from app.tool_calls.prompting import shorten
from pipelines.generation import Message

log = logging.getLogger(__name__)

RESULTS_SHARE = 0.5
"""Of the room after the system prompt and the question, what tool results may take before
older turns give way: the results are what this answer is about, but the turns just before
it often say what the question means."""
PROMPT_MARGIN_TOKENS = 16
"""Kept free besides the per-message estimate: the chat template's own start and end, and
what counting pieces separately misses when they are joined."""


@dataclass(frozen=True)
class PromptRoom:
    """How many tokens one prompt may take: the context less the answer's room."""

    counter: TokenCounter
    """The model's tokenizer (a remote model's estimate)."""
    limit: int
    """Tokens the messages may take, the answer's room already taken off."""

    def cost(self, messages: Sequence[Message]) -> int:
        """Tokens ``messages`` take as the chat template lays them out (an estimate from above)."""
        count = self.counter.count_tokens
        return (
            sum(count(m.content) + TEMPLATE_TOKENS_PER_MESSAGE for m in messages)
            + PROMPT_MARGIN_TOKENS
        )

    def fit(
        self,
        history: Sequence[Message],
        prompt: Callable[[Sequence[str]], str],
        results: Sequence[str],
        cap: int,
    ) -> list[Message] | None:
        """The messages to send: ``history`` with its last message (the question) replaced by
        ``prompt(shown)``, where ``shown`` are ``results`` as the model reads them — at most
        ``cap`` characters each, shortened further or with older turns left out so that
        everything fits in :attr:`limit`.

        Returns None when even the question with every result cut to nothing does not fit.
        """
        system = [m for m in history[:1] if m.role == "system"]
        older = list(history[len(system) : -1])
        empty = [shorten(r, 0) for r in results]
        base = self.cost([*system, Message("user", prompt(empty))])
        room = self.limit - base
        if room < 0:
            log.warning("the question and its tool results do not fit in %d tokens", self.limit)
            return None
        whole = [shorten(r, cap) for r in results]
        wanted = self.cost([Message("user", prompt(whole))]) - self.cost(
            [Message("user", prompt(empty))]
        )
        kept = self._recent(older, room - min(wanted, int(room * RESULTS_SHARE)))
        head = [*system, *kept]
        chars = self._longest_fitting(head, prompt, results, cap)
        shown = [shorten(r, chars) for r in results]
        return [*head, Message("user", prompt(shown))]

    def _recent(self, older: list[Message], room: int) -> list[Message]:
        """The newest of ``older`` that fit in ``room`` tokens (oldest are dropped first)."""
        used = 0
        first = len(older)
        for index in range(len(older) - 1, -1, -1):
            used += self.counter.count_tokens(older[index].content) + TEMPLATE_TOKENS_PER_MESSAGE
            if used > room:
                break
            first = index
        return older[first:]

    def _longest_fitting(
        self,
        head: list[Message],
        prompt: Callable[[Sequence[str]], str],
        results: Sequence[str],
        cap: int,
    ) -> int:
        """The most characters of each result that fit after ``head`` (results shorter than
        that are whole; the longest are cut first). A binary search: tokens grow with
        characters, and the whole prompt is counted, so the answer is exact for it."""

        def fits(chars: int) -> bool:
            shown = [shorten(r, chars) for r in results]
            return self.cost([*head, Message("user", prompt(shown))]) <= self.limit

        low, high = 0, min(max((len(r) for r in results), default=0), cap)
        if fits(high):
            return high
        while low < high:  # fits(low) holds: fit() checked the results cut to nothing
            middle = (low + high + 1) // 2
            if fits(middle):
                low = middle
            else:
                high = middle - 1
        return low
