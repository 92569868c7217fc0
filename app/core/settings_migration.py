"""How a settings file an older release wrote moves into today's shape, once, when it is read.

Each file says the defaults and shape it was written under (``defaults_version``); the
:class:`~app.core.settings_store.SettingsStore` hands the parsed file to
:func:`update_old_defaults` before validating it, and saves the result under
:data:`DEFAULTS_VERSION`. Every file an older release wrote loads with the same choices.

Releases before settings version 3 kept the model choices in flat fields (``chat_model``,
``embedding_model``, …), a ``devices`` map keyed by pipeline (``chat``, ``knowledge``, ``tts``,
``lipsync``, ``speech-to-text``; a value ``REMOTE:<name>`` meant a remote endpoint) and
``face_detector_device``; :func:`move_old_model_fields` turns them into ``models``
(:class:`~app.core.model_choices.ModelChoices`).
"""

from __future__ import annotations

from typing import Any

from app.core.remote_endpoints import DEVICE_PREFIX

DEFAULTS_VERSION = 3
"""The defaults and shape a settings file is written under (see :func:`update_old_defaults`).
1 (files without the field): repetition penalty 1.1; 2: 1.0; 3: model choices in ``models``."""
OLD_REPETITION_PENALTY = 1.1


def update_old_defaults(data: dict[str, Any]) -> tuple[bool, list[str]]:
    """Update a settings file's values (parsed, not yet validated) written under older
    defaults or in an older shape, in place; whether anything was changed, and the old keys
    whose values could not be carried over (reset to their defaults).

    Version 1 saved a repetition penalty of 1.1 in the chat defaults and in every preset,
    whether or not the user chose it (the file is saved whole), and 1.1 breaks long answers
    (GenAI penalises every token, prompt included). A saved 1.1 is taken as the old default
    and becomes 1.0; any other value was the user's choice and stays.

    Versions 1 and 2 kept the model choices in flat fields, ``devices`` and
    ``face_detector_device``; they move into ``models`` with the same choices
    (:func:`move_old_model_fields`) whatever the version says: an older
    release that saves a newer file writes its own shape under the newer version.
    """
    version = data.get("defaults_version")
    version = version if isinstance(version, int) else 1
    if version >= DEFAULTS_VERSION and not OLD_MODEL_KEYS & data.keys():
        return False, []
    if version < 2:
        presets = data.get("chat_presets")
        chats = [data.get("chat"), *(presets.values() if isinstance(presets, dict) else ())]
        for chat in chats:
            if isinstance(chat, dict) and chat.get("repetition_penalty") == OLD_REPETITION_PENALTY:
                chat["repetition_penalty"] = 1.0
    unusable = move_old_model_fields(data)
    data["defaults_version"] = max(version, DEFAULTS_VERSION)
    return True, unusable


OLD_MODEL_FIELDS: dict[str, tuple[str, str]] = {
    "chat": ("chat_model", "chat"),
    "embedding": ("embedding_model", "knowledge"),
    "rerank": ("reranker_model", "knowledge"),
    "tts": ("tts_model", "tts"),
    "speaker_encoder": ("speaker_encoder", "tts"),
    "lipsync": ("lipsync_model", "lipsync"),
    "face_detector": ("", ""),
    "speech_to_text": ("speech_to_text_model", "speech-to-text"),
}
"""Before settings version 3: each choice's folder field and ``devices`` key (the face
detector's folder was not a setting; its device was ``face_detector_device``)."""

OLD_MODEL_KEYS = frozenset(
    {"devices", "face_detector_device", *(field for field, _ in OLD_MODEL_FIELDS.values() if field)}
)
"""The keys :func:`move_old_model_fields` moves into ``models``."""


def move_old_model_fields(data: dict[str, Any]) -> list[str]:
    """Move a settings file's flat model fields, ``devices`` and ``face_detector_device``
    (parsed, not yet validated) into ``models``, in place; the old keys whose values could
    not be moved at all.

    Values are moved as they are: a wrong type fails validation in its new place, where the
    store resets that one choice and says so. A file that already has ``models`` keeps it
    (the old keys are dropped).
    """
    devices = data.pop("devices", None)
    detector = data.pop("face_detector_device", None)
    folders = {
        name: data.pop(field) for name, (field, _) in OLD_MODEL_FIELDS.items() if field in data
    }
    unusable = [] if devices is None or isinstance(devices, dict) else ["devices"]
    if "models" in data:
        return unusable
    devices = devices if isinstance(devices, dict) else {}
    models: dict[str, Any] = {}
    for name, (_, key) in OLD_MODEL_FIELDS.items():
        device = detector if name == "face_detector" else devices.get(key)
        choice: dict[str, Any] = {}
        if name in folders:
            choice["folder"] = folders[name]
        if device is not None:
            choice["placement"] = _old_placement(device)
        if choice:
            models[name] = choice
    data["models"] = models
    return unusable


def _old_placement(device: Any) -> Any:
    """The placement an old device value meant (any other type is left to fail validation)."""
    # Plain values, not a Placement: "REMOTE:" with no name must fail validation, not here.
    if isinstance(device, str) and device.strip().upper().startswith(DEVICE_PREFIX):
        return {"kind": "remote", "endpoint": device.strip()[len(DEVICE_PREFIX) :].strip()}
    return {"kind": "local", "device": device}
