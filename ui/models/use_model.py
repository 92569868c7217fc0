"""*Use* in the model manager: load a model where it is used, and show that panel.

The manager knows models, the window knows panels: this is the one place that maps a model's
task to what the panels already do when the user chooses a model there (the chat's picker, the
Knowledge embedder row) or to the setting the panel reads its model from (Voice, Avatar,
Create, dictation, the reranker).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.models import ModelTask
from ui.i18n import tr
from ui.models.listing import ListedModel, Origin
from ui.shell.settings_changes import change_settings

if TYPE_CHECKING:  # the window imports this package
    from ui.shell.main_window import MainWindow

PANEL_OF: dict[ModelTask, str] = {
    ModelTask.CHAT: "Chat",
    ModelTask.VISION_CHAT: "Chat",
    ModelTask.SPEECH_TO_TEXT: "Chat",  # dictation, in the chat's input row
    ModelTask.EMBEDDING: "Knowledge",
    ModelTask.RERANK: "Knowledge",
    ModelTask.TTS: "Voice",
    ModelTask.SPEAKER_ENCODER: "Voice",
    ModelTask.SPEAKER_SIMILARITY: "Voice",  # the likeness figure next to each voice
    ModelTask.LIPSYNC: "Avatar",
    ModelTask.IMAGE_GENERATION: "Create",
    ModelTask.UPSCALE: "Create",  # the gallery's Upscale uses the chosen one
    ModelTask.PREVIEW_DECODER: "Create",  # the live previews use the chosen one
}


def use_model(window: MainWindow, row: ListedModel) -> str | None:
    """Load ``row``'s model where it is used and show that panel; returns the panel's name
    (None: no panel uses this task). A refusal is said where the panel says it."""
    model = row.model
    panel = PANEL_OF.get(model.task)
    if panel is None:
        return None
    if model.task in (ModelTask.CHAT, ModelTask.VISION_CHAT):
        window.chat_panel.load_model(model.folder)
    elif model.task is ModelTask.EMBEDDING:
        embedder = window.knowledge_panel.model_row
        if row.origin is Origin.BUNDLED:
            embedder.use_bundled()  # sets it up first when it was never converted
        else:
            embedder.use(model.folder)
    else:
        # The other tasks' panels read their model from the settings when they next need it.
        store = window.ctx.settings_store
        models = store.settings.models.with_folder(model.task, model.folder)
        if not change_settings(store, window.show_status, models=models):
            return None
        window.show_status(tr("{name} is now used.").format(name=model.id))
    window.show_panel(panel)
    window.activateWindow()
    return panel
