"""Chat: conversations and their storage, the chat model, answers (with tools, images and JSON)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.face import lazy_exports

if TYPE_CHECKING:
    from app.chat.context_window import ContextUsage, max_answer_tokens
    from app.chat.export import (
        FORMATS,
        Format,
        default_file_name,
        export_text,
        read_import,
        write_export,
    )
    from app.chat.faster_layout import choose_faster_layout, layout_sentence, wants_faster_layout
    from app.chat.images import (
        IMAGE_SUFFIXES,
        MAX_IMAGES,
        PreparedImage,
        TextOnlyModelError,
        check_count,
        decode_rgb,
        prepare_image,
        prepare_image_bytes,
        prepare_pixels,
    )
    from app.chat.messages import ChatMessage, Conversation
    from app.chat.picture_text import NoTextFoundError, PictureText
    from app.chat.results import Answer, LoadedModel
    from app.chat.search import SearchMatch, snapshot
    from app.chat.search import search as search_conversations
    from app.chat.service import ChatService
    from app.chat.storage import ConversationStore
    from app.chat.structured import ANY_JSON_OBJECT, MAX_SCHEMA_BYTES, check_schema
    from pipelines.batching import BatchingEngine, ServingConfig
    from pipelines.chat import ChatPipeline
    from pipelines.engine_options import (
        KV_CACHE_PRECISIONS,
        MAX_EVICTION_CACHE_TOKENS,
        MIN_EVICTION_CACHE_TOKENS,
        PARALLELISMS,
        EngineOptions,
        ParallelHardware,
        cpu_has_amx,
        describe,
        offered_parallelism,
    )
    from pipelines.generation import (
        MAX_PROMPT_CHARS,
        GenerationSettings,
        Message,
        validate_messages,
    )
    from pipelines.gguf import GgufInfo, is_gguf_path, read_gguf_info
    from pipelines.gguf_relayout import EXACT as EXACT_LAYOUT
    from pipelines.gguf_relayout import LayoutDecision, RelayoutBusyError
    from pipelines.grammar_guard import GrammarGuard
    from pipelines.model_sampling import ModelSampling, sampling_from_folder
    from pipelines.serving_requests import (
        BatchRequest,
        ChatPrompt,
        Completion,
        Prompt,
        RequestOptions,
        TextPrompt,
    )
    from pipelines.shared_serving import SharedChatEngine
    from pipelines.vision_chat import VisionChatPipeline, is_vision_folder

_WHERE = {
    "ANY_JSON_OBJECT": "app.chat.structured:ANY_JSON_OBJECT",
    "Answer": "app.chat.results:Answer",
    "BatchRequest": "pipelines.serving_requests:BatchRequest",
    "BatchingEngine": "pipelines.batching:BatchingEngine",
    "ChatMessage": "app.chat.messages:ChatMessage",
    "ChatPipeline": "pipelines.chat:ChatPipeline",
    "ChatPrompt": "pipelines.serving_requests:ChatPrompt",
    "ChatService": "app.chat.service:ChatService",
    "Completion": "pipelines.serving_requests:Completion",
    "ContextUsage": "app.chat.context_window:ContextUsage",
    "Conversation": "app.chat.messages:Conversation",
    "ConversationStore": "app.chat.storage:ConversationStore",
    "EngineOptions": "pipelines.engine_options:EngineOptions",
    "EXACT_LAYOUT": "pipelines.gguf_relayout:EXACT",
    "FORMATS": "app.chat.export:FORMATS",
    "Format": "app.chat.export:Format",
    "GenerationSettings": "pipelines.generation:GenerationSettings",
    "GgufInfo": "pipelines.gguf:GgufInfo",
    "GrammarGuard": "pipelines.grammar_guard:GrammarGuard",
    "IMAGE_SUFFIXES": "app.chat.images:IMAGE_SUFFIXES",
    "KV_CACHE_PRECISIONS": "pipelines.engine_options:KV_CACHE_PRECISIONS",
    "LayoutDecision": "pipelines.gguf_relayout:LayoutDecision",
    "LoadedModel": "app.chat.results:LoadedModel",
    "MAX_EVICTION_CACHE_TOKENS": "pipelines.engine_options:MAX_EVICTION_CACHE_TOKENS",
    "MAX_IMAGES": "app.chat.images:MAX_IMAGES",
    "MAX_PROMPT_CHARS": "pipelines.generation:MAX_PROMPT_CHARS",
    "MAX_SCHEMA_BYTES": "app.chat.structured:MAX_SCHEMA_BYTES",
    "MIN_EVICTION_CACHE_TOKENS": "pipelines.engine_options:MIN_EVICTION_CACHE_TOKENS",
    "Message": "pipelines.generation:Message",
    "ModelSampling": "pipelines.model_sampling:ModelSampling",
    "NoTextFoundError": "app.chat.picture_text:NoTextFoundError",
    "PictureText": "app.chat.picture_text:PictureText",
    "PreparedImage": "app.chat.images:PreparedImage",
    "Prompt": "pipelines.serving_requests:Prompt",
    "RelayoutBusyError": "pipelines.gguf_relayout:RelayoutBusyError",
    "RequestOptions": "pipelines.serving_requests:RequestOptions",
    "SearchMatch": "app.chat.search:SearchMatch",
    "ServingConfig": "pipelines.batching:ServingConfig",
    "SharedChatEngine": "pipelines.shared_serving:SharedChatEngine",
    "TextOnlyModelError": "app.chat.images:TextOnlyModelError",
    "TextPrompt": "pipelines.serving_requests:TextPrompt",
    "VisionChatPipeline": "pipelines.vision_chat:VisionChatPipeline",
    "check_count": "app.chat.images:check_count",
    "check_schema": "app.chat.structured:check_schema",
    "choose_faster_layout": "app.chat.faster_layout:choose_faster_layout",
    "cpu_has_amx": "pipelines.engine_options:cpu_has_amx",
    "offered_parallelism": "pipelines.engine_options:offered_parallelism",
    "PARALLELISMS": "pipelines.engine_options:PARALLELISMS",
    "ParallelHardware": "pipelines.engine_options:ParallelHardware",
    "decode_rgb": "app.chat.images:decode_rgb",
    "default_file_name": "app.chat.export:default_file_name",
    "describe": "pipelines.engine_options:describe",
    "export_text": "app.chat.export:export_text",
    "is_gguf_path": "pipelines.gguf:is_gguf_path",
    "is_vision_folder": "pipelines.vision_chat:is_vision_folder",
    "layout_sentence": "app.chat.faster_layout:layout_sentence",
    "max_answer_tokens": "app.chat.context_window:max_answer_tokens",
    "prepare_image": "app.chat.images:prepare_image",
    "prepare_image_bytes": "app.chat.images:prepare_image_bytes",
    "prepare_pixels": "app.chat.images:prepare_pixels",
    "read_gguf_info": "pipelines.gguf:read_gguf_info",
    "read_import": "app.chat.export:read_import",
    "sampling_from_folder": "pipelines.model_sampling:sampling_from_folder",
    "search_conversations": "app.chat.search:search",
    "snapshot": "app.chat.search:snapshot",
    "validate_messages": "pipelines.generation:validate_messages",
    "wants_faster_layout": "app.chat.faster_layout:wants_faster_layout",
    "write_export": "app.chat.export:write_export",
}
"""Each name the front ends use, and the module it lives in."""

__all__ = [
    "ANY_JSON_OBJECT",
    "EXACT_LAYOUT",
    "FORMATS",
    "IMAGE_SUFFIXES",
    "KV_CACHE_PRECISIONS",
    "MAX_EVICTION_CACHE_TOKENS",
    "MAX_IMAGES",
    "MAX_PROMPT_CHARS",
    "MAX_SCHEMA_BYTES",
    "MIN_EVICTION_CACHE_TOKENS",
    "PARALLELISMS",
    "Answer",
    "BatchRequest",
    "BatchingEngine",
    "ChatMessage",
    "ChatPipeline",
    "ChatPrompt",
    "ChatService",
    "Completion",
    "ContextUsage",
    "Conversation",
    "ConversationStore",
    "EngineOptions",
    "Format",
    "GenerationSettings",
    "GgufInfo",
    "GrammarGuard",
    "LayoutDecision",
    "LoadedModel",
    "Message",
    "ModelSampling",
    "NoTextFoundError",
    "ParallelHardware",
    "PictureText",
    "PreparedImage",
    "Prompt",
    "RelayoutBusyError",
    "RequestOptions",
    "SearchMatch",
    "ServingConfig",
    "SharedChatEngine",
    "TextOnlyModelError",
    "TextPrompt",
    "VisionChatPipeline",
    "check_count",
    "check_schema",
    "choose_faster_layout",
    "cpu_has_amx",
    "decode_rgb",
    "default_file_name",
    "describe",
    "export_text",
    "is_gguf_path",
    "is_vision_folder",
    "layout_sentence",
    "max_answer_tokens",
    "offered_parallelism",
    "prepare_image",
    "prepare_image_bytes",
    "prepare_pixels",
    "read_gguf_info",
    "read_import",
    "sampling_from_folder",
    "search_conversations",
    "snapshot",
    "validate_messages",
    "wants_faster_layout",
    "write_export",
]
__getattr__ = lazy_exports(__name__, _WHERE)
