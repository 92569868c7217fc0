"""Answering in a conversation, one answer at a time: what the model reads (the context
window, the history that fits, knowledge grounding), MCP tool calls, JSON answers, images,
answering again, and going on with an answer cut at its length limit.

Every finished turn is saved atomically; a failed answer leaves the conversation as it was, so
the user's message is never half-stored (the UI keeps the typed text until an answer succeeds).
It asks :class:`~app.chat.model.ChatModel` for the model and its turn, and
:class:`~app.chat.conversations.ChatConversations` for the conversations and their files.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from app.chat.context_window import Retriever
from app.chat.conversations import NEW_TITLE, ChatConversations
from app.chat.history import TEMPLATE_TOKENS_PER_MESSAGE
from app.chat.images import PreparedImage, decode_rgb, read_stored_image
from app.chat.message_versions import with_earlier
from app.chat.messages import ChatMessage, Conversation
from app.chat.model import ChatModel
from app.chat.results import Answer, LoadedModel
from app.chat.structured import answer_problem, check_schema
from app.chat.tool_loop import ConfirmTool, OnToolCall, ToolLoop
from app.core.errors import StorageError, UserError
from app.core.performance.live_rate import LiveRate
from app.core.performance.metrics import MetricsBus
from app.core.texts import tr
from app.mcp.calls import ToolCall
from app.mcp.service import ToolService
from pipelines.chat import ChatPipeline
from pipelines.core import Cancelled, CancelToken, MetricRecord
from pipelines.generation import GenerationSettings
from pipelines.vision_chat import Image, VisionChatPipeline

if TYPE_CHECKING:  # openai is imported when a remote model is first loaded
    from app.engines.remote.chat import RemoteChatPipeline

log = logging.getLogger(__name__)


class Answerer:
    """Writes the model's answers into conversations; one answer at a time."""

    def __init__(
        self,
        conversations: ChatConversations,
        model: ChatModel,
        metrics: MetricsBus,
        retriever: Retriever | None = None,
        tools: ToolService | None = None,
    ) -> None:
        """Answer into ``conversations`` with ``model``.

        Args:
            conversations: where questions and answers are kept.
            model: the chat model and its turn.
            metrics: where each answer's figures are published.
            retriever: the knowledge a conversation may be grounded in (None: not offered).
            tools: MCP tools the model may call (a conversation enables some); None: none.
        """
        self._conversations = conversations
        self._model = model
        self._metrics = metrics
        self._retriever = retriever
        self._tools = tools

    def ask(
        self,
        conversation_id: str,
        prompt: str,
        settings: GenerationSettings,
        cancel: CancelToken,
        on_text: Callable[[str], None],
        images: Sequence[PreparedImage] = (),
        confirm: Callable[[], bool] | None = None,
        confirm_tool: ConfirmTool | None = None,
        on_tool_call: OnToolCall | None = None,
    ) -> Answer:
        """Add ``prompt`` (and ``images``) to the conversation and stream the answer.

        The turn (question + answer, partial if stopped, copies of the images) is saved
        atomically when done. If generation fails the conversation is left as it was.
        ``confirm`` (a spoken turn answered before the user was surely done) is asked once the
        answer is written, before anything is kept: False leaves the conversation as it was
        and raises :class:`~pipelines.core.Cancelled`.

        With tools enabled in the conversation, the model may first call some (see
        :mod:`app.chat.tool_loop`): ``confirm_tool`` is asked before a tool that is not
        allowed runs (None: such calls are refused), ``on_tool_call`` is told of each call;
        the calls are stored with the answer (``tool_calls``).

        Raises:
            UserError: an empty prompt; images on a model that reads text only, or too many
                (field ``images``: nothing is sent).
        """
        if not prompt.strip():
            raise UserError(tr("Type a message first."), field="prompt")
        self._model.check_images(len(images))
        conversation = self._conversations.get(conversation_id)
        question = ChatMessage(role="user", content=prompt)
        loop = self._tool_loop(conversation, confirm_tool, on_tool_call)
        return self._answer(
            conversation, question, settings, cancel, on_text, images, confirm, loop=loop
        )

    def regenerate(
        self,
        conversation_id: str,
        settings: GenerationSettings,
        cancel: CancelToken,
        on_text: Callable[[str], None],
        *,
        confirm_tool: ConfirmTool | None = None,
        on_tool_call: OnToolCall | None = None,
    ) -> Answer:
        """Answer the last question again; once the new answer is done it is shown and the
        earlier ones are kept as its versions (each with the tool calls it made).

        With tools enabled in the conversation the model may call them again, as in
        :meth:`ask` (``confirm_tool``, ``on_tool_call``)."""
        conversation = self._conversations.get(conversation_id)
        messages = conversation.messages
        last_user = max((i for i, m in enumerate(messages) if m.role == "user"), default=-1)
        if last_user < 0:
            raise UserError(tr("There is no question to answer again."), field="prompt")
        question = messages[last_user]
        self._model.check_images(len(question.images))
        previous = messages[last_user:]
        earlier = next((m for m in previous[1:] if m.role == "assistant"), None)
        loop = self._tool_loop(conversation, confirm_tool, on_tool_call)
        del messages[last_user:]
        try:
            return self._answer(
                conversation, question, settings, cancel, on_text, earlier=earlier, loop=loop
            )
        except BaseException:
            messages.extend(previous)  # a failed regeneration keeps the old answer
            raise

    def resend(
        self,
        conversation_id: str,
        index: int,
        prompt: str,
        settings: GenerationSettings,
        cancel: CancelToken,
        on_text: Callable[[str], None],
        *,
        confirm_tool: ConfirmTool | None = None,
        on_tool_call: OnToolCall | None = None,
    ) -> Answer:
        """Replace question ``index`` by ``prompt`` (its images stay) and answer it; what
        followed it is replaced by the new answer once that is done. A failed answer leaves
        the conversation as it was. With tools enabled in the conversation the model may call
        them, as in :meth:`ask` (``confirm_tool``, ``on_tool_call``).

        Raises:
            UserError: an empty prompt, or ``index`` is not a question.
        """
        if not prompt.strip():
            raise UserError(tr("Type a message first."), field="prompt")
        conversation = self._conversations.get(conversation_id)
        messages = conversation.messages
        if not 0 <= index < len(messages) or messages[index].role != "user":
            raise UserError(tr("That message is no longer in the conversation."), field="prompt")
        question = ChatMessage(role="user", content=prompt, images=list(messages[index].images))
        previous = messages[index:]
        loop = self._tool_loop(conversation, confirm_tool, on_tool_call)
        del messages[index:]
        try:
            return self._answer(conversation, question, settings, cancel, on_text, loop=loop)
        except BaseException:
            messages.extend(previous)
            raise

    def continue_answer(
        self,
        conversation_id: str,
        settings: GenerationSettings,
        cancel: CancelToken,
        on_text: Callable[[str], None],
    ) -> Answer:
        """Go on with the last answer, cut at its length limit: the model continues from its
        last token and the text joins the same message (its versions kept), which is saved
        atomically. ``on_text`` receives only the new text. Up to ``max_new_tokens`` more,
        within what the model's context still holds.

        Raises:
            UserError: the last answer was not cut; the model cannot continue an answer
                (vision and remote models); the answer already fills the context.
        """
        with self._model.turn():
            conversation = self._conversations.get(conversation_id)
            messages = conversation.messages
            if len(messages) < 2 or messages[-1].role != "assistant" or not messages[-1].cut:
                raise UserError(tr("There is no cut answer to continue."), field="prompt")
            pipeline, loaded = self._model.require()
            if not self._model.continues_answers:
                raise UserError(
                    tr("This model cannot go on from where an answer stopped: ask it to go on."),
                    field="prompt",
                )
            *earlier, question, answer = messages
            before = replace(conversation, messages=list(earlier))
            settings = self._room_to_continue(pipeline, loaded, before, question, answer, settings)
            # The answer so far is read too: the history keeps room for it.
            reserved = settings.max_new_tokens + pipeline.count_tokens(answer.content)
            context = self._model.context_budget(
                pipeline, loaded.context_tokens, replace(settings, max_new_tokens=reserved)
            )
            grounding = context.ground(self._retriever, before, question)
            history = context.fit(before, grounding.question)
            counter = LiveRate(self._metrics, loaded.device, on_text)
            result = pipeline.generate(
                history, settings, cancel, counter, answer_start=answer.content
            )
            self._metrics.publish(result.metrics)
            values = dict(result.metrics.values)  # the new part's figures, the whole's count
            earlier_tokens = answer.metrics.get("output_tokens", 0.0)
            values["output_tokens"] = values.get("output_tokens", 0.0) + earlier_tokens
            continued = replace(
                answer,
                content=answer.content + result.text,
                stopped=result.stopped,
                cut=result.cut,
                metrics=values,
                device=loaded.device_label,
            )
            messages[-1] = continued
            conversation.updated = time.time()
            return self._keep(conversation, continued)

    def _room_to_continue(
        self,
        pipeline: ChatPipeline | RemoteChatPipeline,
        loaded: LoadedModel,
        before: Conversation,
        question: ChatMessage,
        answer: ChatMessage,
        settings: GenerationSettings,
    ) -> GenerationSettings:
        """``settings`` for going on with ``answer``: the context keeps room for the answer so
        far, so the new part is at most what is left of it.

        Raises:
            UserError: the question and the answer so far already fill the context.
        """
        count = pipeline.count_tokens
        taken = count(answer.content) + count(question.content) + count(before.system_prompt)
        left = loaded.context_tokens - taken - 3 * TEMPLATE_TOKENS_PER_MESSAGE
        if left < 1:
            raise UserError(
                tr("This answer already fills what the model can read: it cannot go on."),
                field="prompt",
            )
        return replace(settings, max_new_tokens=min(settings.max_new_tokens, left))

    def keep_spoken(self, conversation_id: str, spoken: str) -> Answer:
        """Replace the last answer by what was actually said of it, marked stopped (a spoken
        answer interrupted by the user: the model had written ahead of the voice).

        Saved atomically as every turn is; a failed save is reported in the result (the
        answer stays changed in memory), as :meth:`ask` does.

        Raises:
            UserError: the conversation's last message is not an answer.
        """
        with self._model.turn():
            conversation = self._conversations.get(conversation_id)
            if not conversation.messages or conversation.messages[-1].role != "assistant":
                raise UserError(tr("There is no answer to shorten."), field="prompt")
            answer = replace(conversation.messages[-1], content=spoken, stopped=True, cut=False)
            conversation.messages[-1] = answer
            conversation.updated = time.time()
            return self._keep(conversation, answer)

    def _answer(
        self,
        conversation: Conversation,
        question: ChatMessage,
        settings: GenerationSettings,
        cancel: CancelToken,
        on_text: Callable[[str], None],
        new_images: Sequence[PreparedImage] = (),
        confirm: Callable[[], bool] | None = None,
        *,
        earlier: ChatMessage | None = None,
        loop: ToolLoop | None = None,
    ) -> Answer:
        if settings.json_schema is not None:  # refused with its sentence before any work
            settings = replace(settings, json_schema=check_schema(settings.json_schema))
        with self._model.turn():
            pipeline, loaded = self._model.require()
            context = self._model.context_budget(pipeline, loaded.context_tokens, settings)
            grounding = context.ground(self._retriever, conversation, question)
            history = context.fit(conversation, grounding.question)
            counter = LiveRate(self._metrics, loaded.device, on_text)
            started = time.perf_counter()
            pixels = self._pixels(conversation, question, new_images)
            prepare_ms = (time.perf_counter() - started) * 1000.0
            calls: list[ToolCall] = []
            if isinstance(pipeline, VisionChatPipeline):
                result = pipeline.generate(history, settings, cancel, counter, images=pixels)
            else:
                if loop is not None:
                    history, calls = loop.run(pipeline, history, cancel, context)
                result = pipeline.generate(history, settings, cancel, counter)
            if confirm is not None and not confirm():
                raise Cancelled()
            values = dict(result.metrics.values)
            if pixels:
                values["image_prepare_ms"] = prepare_ms
            record = MetricRecord(pipeline="chat", device=loaded.device, values=values)
            self._metrics.publish(record)
            answer = ChatMessage(
                role="assistant",
                content=result.text,
                stopped=result.stopped,
                cut=result.cut,
                device=loaded.device_label,
                metrics=values,
                sources=[source.to_dict() for source in grounding.sources],
                sources_left_out=grounding.left_out,
                model=loaded.model_name,
                tool_calls=[call.to_dict() for call in calls],
            )
            if earlier is not None:  # Regenerate: the earlier answers stay as versions
                answer = with_earlier(answer, earlier)
            problem = answer_problem(result.text, settings, values.get("output_tokens"))
            conversation.messages.extend([question, answer])
            conversation.updated = time.time()
            if conversation.title == NEW_TITLE:
                conversation.title = _title_from(question.content)
            pngs = [image.png for image in new_images]
            drawn = [picture for call in calls for picture in call.pictures]
            return self._keep(conversation, answer, question, pngs, problem, drawn)

    def _keep(
        self,
        conversation: Conversation,
        answer: ChatMessage,
        question: ChatMessage | None = None,
        new_images: Sequence[bytes] = (),
        json_problem: str = "",
        drawn: Sequence[bytes] = (),
    ) -> Answer:
        """Save ``conversation`` whose last message is ``answer`` (with the pictures its tool
        calls ``drawn``, PNG bytes); a failed save is reported in the result (the answer stays
        in memory), as every turn's."""
        try:
            saved = self._conversations.save_turn(
                conversation, question, new_images, answer=answer, answer_images=drawn
            )
        except StorageError as error:
            log.warning("%s", error)
            return Answer(
                conversation, answer, saved=False, save_error=str(error), json_problem=json_problem
            )
        return Answer(conversation, answer, saved=saved, json_problem=json_problem)

    def _tool_loop(
        self,
        conversation: Conversation,
        confirm: ConfirmTool | None,
        on_call: OnToolCall | None,
    ) -> ToolLoop | None:
        """The tool loop of the conversation's next answer, or None without tools."""
        if self._tools is None or not conversation.tools:
            return None
        return ToolLoop(self._tools, list(conversation.tools), confirm, on_call)

    def _pixels(
        self, conversation: Conversation, question: ChatMessage, new: Sequence[PreparedImage]
    ) -> list[Image]:
        """The question's images as the model takes them: new attachments, or the stored
        copies of a question answered again. Only this turn's: see VisionChatPipeline."""
        if new:
            return [decode_rgb(image.png) for image in new]
        paths = [self._conversations.image_path(conversation.id, name) for name in question.images]
        return [read_stored_image(path) for path in paths]


def _title_from(prompt: str) -> str:
    words = " ".join(prompt.split())
    return words if len(words) <= 48 else words[:47].rstrip() + "…"
