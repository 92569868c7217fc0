"""ChatService: a remote model takes no engine options; a conversation's tools are stored and
checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.chat.service import ChatService, refuse_remote_engine
from app.chat.storage import ConversationStore
from app.core.devices import DeviceInfo
from app.core.errors import UserError
from app.core.performance.metrics import MetricsBus
from app.mcp.service import ToolService
from pipelines.engine_options import EngineOptions


def test_remote_models_take_no_engine_options() -> None:
    refuse_remote_engine(EngineOptions())
    with pytest.raises(UserError, match="models that run on this computer") as caught:
        refuse_remote_engine(EngineOptions(kv_cache_precision="u8"))
    assert caught.value.field == "kv_cache_precision"


def test_set_tools_is_stored_and_checked(tmp_path: Path) -> None:
    def make() -> ChatService:
        tools = ToolService(lambda: [], tmp_path / "mcp")
        store = ConversationStore(tmp_path / "conversations")
        return ChatService(store, MetricsBus(), [DeviceInfo("CPU", "CPU")], tools=tools)

    service = make()
    conversation = service.new_conversation("")
    for bad in (["calc"], ["/add"], ["calc/"], ["calc/a\nb"]):
        with pytest.raises(UserError) as caught:
            service.set_tools(conversation.id, bad)
        assert caught.value.field == "tools"
    service.set_tools(conversation.id, ["calc/add", "calc/add", "web/read"])
    assert conversation.tools == ["calc/add", "web/read"]
    no_tools = ChatService(
        ConversationStore(tmp_path / "c2"), MetricsBus(), [DeviceInfo("CPU", "CPU")]
    )
    other = no_tools.new_conversation("")
    with pytest.raises(UserError, match="not available"):
        no_tools.set_tools(other.id, ["calc/add"])
