"""What a new chat offers: three prompts for what the loaded model can do (its own kind
first), then asking about documents and talking, where they work."""

from __future__ import annotations

from ui.chat.starters import Abilities, Action, starters, text_starters


def _actions(abilities: Abilities) -> list[Action]:
    return [starter.action for starter in starters(abilities)]


def test_a_text_model_gets_three_questions_it_answers_alone() -> None:
    offered = starters(Abilities(knowledge=False))
    assert offered == text_starters()
    assert len(offered) == 3 and all(s.action is Action.SEND and s.prompt for s in offered)


def test_a_vision_model_starts_with_pictures() -> None:
    offered = starters(Abilities(vision=True, knowledge=False))
    assert [s.action for s in offered] == [Action.ATTACH_IMAGE, Action.ATTACH_IMAGE, Action.SEND]
    assert offered[0].prompt == "Describe this picture in detail."
    assert offered[2] == text_starters()[0]


def test_a_chat_with_tools_starts_with_them() -> None:
    offered = starters(Abilities(tools=("read_file", "search"), knowledge=False))
    assert [s.action for s in offered] == [Action.SEND, Action.FILL, Action.SEND]
    assert "tools" in offered[0].prompt
    assert offered[1].title == "Use read_file…"
    assert offered[1].prompt == "Use the read_file tool to "  # the user finishes it


def test_a_vision_model_with_tools_keeps_three_prompts() -> None:
    offered = starters(Abilities(vision=True, tools=("search",), knowledge=False))
    assert [s.action for s in offered] == [Action.ATTACH_IMAGE, Action.ATTACH_IMAGE, Action.SEND]
    assert offered[2].title == "What can your tools do?"


def test_documents_and_talking_come_after_the_prompts_where_they_work() -> None:
    assert _actions(Abilities())[3:] == [Action.USE_KNOWLEDGE]
    assert _actions(Abilities(listening=True))[3:] == [Action.USE_KNOWLEDGE, Action.DICTATE]
    assert _actions(Abilities(knowledge=False, listening=True))[3:] == [Action.DICTATE]
