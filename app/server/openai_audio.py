"""OpenAI's audio API: ``POST /v1/audio/speech`` (text to speech in one of the user's voices)
and ``POST /v1/audio/transcriptions`` (Whisper).

Speech: with a SpeechT5 model, ``voice`` names one of the voices the user made from a clip
(Voice panel); OpenAI's names (``alloy``, ``nova``…) are voices like any other, so they are
refused with the list of the user's voices unless the user made a voice of that name. With a
Kokoro model, ``voice`` names one of its presets (``jm_kumo``), a blend of two
(``jf_alpha+jm_kumo@0.30``), or one of OpenAI's names, which stands for a preset of the same
gender. ``model`` may be ``tts-1``,
``tts-1-hd``, ``gpt-4o-mini-tts``, empty, or the installed TTS model's folder name: all mean the
app's SpeechT5. Audio is 24 kHz mono in every format (``pcm`` is raw 16-bit little-endian);
``speed`` time-stretches it at the same pitch (see :mod:`app.server.audio_encoding`). The whole
file is sent when it is made (no streaming); ``instructions`` and ``stream_format: "sse"`` are
refused (SpeechT5 takes no style instructions).

Transcriptions: a multipart upload as OpenAI takes it, up to 25 MB, in one of OpenAI's file
types. ``model`` may be ``whisper-1``, ``gpt-4o-transcribe``, ``gpt-4o-mini-transcribe``, empty,
or the installed Whisper's folder name. ``prompt`` and ``temperature`` are accepted and not
used (decoding is greedy, without a prompt); word timestamps are refused.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
from pathlib import Path
from typing import Annotated, Any, Literal

import anyio
from fastapi import APIRouter, File, Form, Request, UploadFile
from fastapi.responses import PlainTextResponse, Response
from pydantic import Field

from app.context import AppContext
from app.core import PRIVATE_FILE, UserError, remove_stale_temp_files, temp_folder
from app.models import ModelTask
from app.server.audio_encoding import (
    MAX_SPEED,
    MEDIA_TYPES,
    MIN_SPEED,
    AudioFormat,
    encode_speech,
)
from app.server.errors import ApiError
from app.server.schema import Lenient, TextRoute
from app.server.state import state_of
from app.speech import Transcript, srt_text, vtt_text
from app.voice import (
    BLEND_MARK,
    MODEL_RATE,
    SUPPORTED_SUFFIXES,
    decode_with_av,
    join_sentences,
    openai_preset,
    speaks_at_speed,
)

router = APIRouter(prefix="/v1/audio", route_class=TextRoute)

MAX_SPEECH_CHARS = 4096
"""OpenAI's limit on ``input``."""
MAX_UPLOAD_BYTES = 25 * 1024 * 1024
"""OpenAI's limit on an audio file (the body cap of the guard is a little above it)."""
SPEECH_MODELS = ("tts-1", "tts-1-hd", "gpt-4o-mini-tts")
TRANSCRIPTION_MODELS = ("whisper-1", "gpt-4o-transcribe", "gpt-4o-mini-transcribe")
#: OpenAI's file types for transcription.
UPLOAD_SUFFIXES = (
    ".flac",
    ".mp3",
    ".mp4",
    ".mpeg",
    ".mpga",
    ".m4a",
    ".ogg",
    ".oga",
    ".opus",
    ".wav",
    ".webm",
)
_CHUNK = 1024 * 1024
#: An upload's name in its temp folder (a transcription error names the client's file instead).
UPLOAD_NAME = "transcribe-upload"
#: Uploads as versions before the temp folders named them, loose in the scratch folder.
_LOOSE_UPLOAD = re.compile(r"transcribe-[0-9a-f]{32}\.[a-z0-9]{1,5}")


class SpeechRequest(Lenient):
    model: str | None = Field(None, max_length=256)
    input: str = Field(min_length=1, max_length=MAX_SPEECH_CHARS)
    voice: str = Field(min_length=1, max_length=200)
    response_format: AudioFormat = "mp3"
    speed: float = Field(1.0, ge=MIN_SPEED, le=MAX_SPEED)
    instructions: str | None = None
    stream_format: Literal["audio", "sse"] = "audio"


# ----- speech ------------------------------------------------------------------------------


@router.post("/speech")
async def speech(request: Request, body: SpeechRequest) -> Response:
    """``input`` spoken in the user's voice ``voice``, as one audio file."""
    state = state_of(request)
    if body.instructions:
        raise ApiError(
            400,
            "'instructions' are not supported: the voice speaks as it was made.",
            param="instructions",
        )
    if body.stream_format == "sse":
        raise ApiError(
            400, '\'stream_format\' "sse" is not supported; use "audio".', param="stream_format"
        )
    ctx = state.ctx
    _check_model(body.model, SPEECH_MODELS, lambda: ctx.voice.model_folder(ModelTask.TTS))
    voice = _voice_name(ctx, body.voice)
    audio = await anyio.to_thread.run_sync(
        _speak, ctx, body.input, voice, body.response_format, body.speed
    )
    state.requests += 1
    return Response(audio, media_type=MEDIA_TYPES[body.response_format])


def _voice_name(ctx: AppContext, requested: str) -> str:
    """The voice called ``requested`` (case-insensitive) of the model in use; with Kokoro, an
    OpenAI voice name is one of its presets and a blend of two presets is a voice too. Else a
    400 listing them."""
    voices = ctx.voice.voice_names()
    for name in voices:
        if name.casefold() == requested.strip().casefold():
            return name
    presets = ctx.voice.presets()
    if presets and (preset := openai_preset(requested, presets)):
        return preset
    if presets and BLEND_MARK in requested:
        return requested.strip()  # checked when spoken: a bad blend is a 400 naming it
    known = ", ".join(voices) if voices else "none yet (make one in the Voice panel)"
    raise ApiError(
        400, f"There is no voice named '{requested}'; the voices are: {known}.", param="voice"
    )


def _speak(
    ctx: AppContext, text: str, voice: str, audio_format: AudioFormat, speed: float
) -> bytes:
    """The whole speech, encoded (blocking: run in a worker thread). Kokoro speaks at the
    asked speed itself (natural pauses and stress); outside its range, and for SpeechT5, the
    audio is time-stretched."""
    if speaks_at_speed(ctx.voice.engine(), speed):
        spoken, stretch = ctx.voice.speak(text, voice, speed=speed), 1.0
    else:
        spoken, stretch = ctx.voice.speak(text, voice, speed=1.0), speed
    chunks = list(spoken)
    rate = chunks[0].rate if chunks else MODEL_RATE
    samples = join_sentences([chunk.samples for chunk in chunks], rate)
    return encode_speech(samples, rate, audio_format, stretch)


# ----- transcriptions ----------------------------------------------------------------------


@router.post("/transcriptions", response_model=None)
async def transcriptions(
    request: Request,
    file: Annotated[UploadFile, File()],
    model: Annotated[str | None, Form(max_length=256)] = None,
    language: Annotated[str | None, Form(max_length=16)] = None,
    prompt: Annotated[str | None, Form(max_length=10_000)] = None,
    response_format: Annotated[
        Literal["json", "text", "srt", "vtt", "verbose_json"], Form()
    ] = "json",
    temperature: Annotated[float, Form(ge=0.0, le=1.0)] = 0.0,
    timestamp_granularities: Annotated[
        list[Literal["segment", "word"]] | None, Form(alias="timestamp_granularities[]")
    ] = None,
) -> Response | dict[str, Any]:
    """What is said in an uploaded audio file, as text, subtitles or JSON."""
    del prompt, temperature  # accepted for compatibility; see the module's docstring
    state = state_of(request)
    ctx = state.ctx
    if timestamp_granularities and "word" in timestamp_granularities:
        raise ApiError(
            400,
            "Word timestamps are not supported; ask for segments.",
            param="timestamp_granularities",
        )
    _check_model(model, TRANSCRIPTION_MODELS, ctx.speech_input.model_folder)
    label = Path(file.filename or "").name or "The file"
    suffix = Path(label).suffix.lower()
    if suffix not in UPLOAD_SUFFIXES:
        kinds = ", ".join(s.lstrip(".") for s in UPLOAD_SUFFIXES)
        raise ApiError(
            400, f"'{label}' is not one of the audio types taken ({kinds}).", param="file"
        )
    language = await anyio.to_thread.run_sync(_language, ctx, language)
    timed = response_format in ("srt", "vtt", "verbose_json")
    # The client's recording, private to the user (0600 in a 0700 folder) and removed when
    # answered; a killed server's is removed at the next start (see remove_left_uploads).
    folder = await anyio.to_thread.run_sync(temp_folder, ctx.paths.scratch_dir)
    upload = folder / f"{UPLOAD_NAME}{suffix}"
    try:
        await _save(file, upload)
        transcript = await anyio.to_thread.run_sync(
            _transcribe, ctx, upload, label, language, timed
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    state.requests += 1
    return _answer(transcript, response_format)


def remove_left_uploads(scratch: Path) -> None:
    """Remove the uploads a stopped server left in ``scratch``: temp folders of processes
    that are gone, and the loose ``transcribe-<uuid>`` files of versions before them."""
    remove_stale_temp_files(scratch)
    try:
        loose = [path for path in scratch.iterdir() if _LOOSE_UPLOAD.fullmatch(path.name)]
    except OSError:
        return  # no scratch folder yet, or an unreadable one: nothing of ours to remove
    for path in loose:
        with contextlib.suppress(OSError):
            path.unlink()


async def _save(file: UploadFile, target: Path) -> None:
    """The upload into ``target`` (created 0600), refusing an empty one or one over 25 MB."""
    size = 0
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)  # Windows: bytes
    handle = os.open(target, flags, PRIVATE_FILE)
    with os.fdopen(handle, "wb") as out:
        while chunk := await file.read(_CHUNK):
            size += len(chunk)
            if size > MAX_UPLOAD_BYTES:
                raise ApiError(
                    413,
                    f"The audio file is over the {MAX_UPLOAD_BYTES // (1024 * 1024)} MB limit.",
                    param="file",
                )
            out.write(chunk)
    if not size:
        raise ApiError(400, "The audio file is empty.", param="file")


def _language(ctx: AppContext, language: str | None) -> str | None:
    """The language to tell Whisper: none for an English-only model asked for English."""
    if not language:
        return None
    if language.lower() == "en" and not ctx.speech_input.multilingual():
        return None
    return language


def _transcribe(
    ctx: AppContext, upload: Path, label: str, language: str | None, timed: bool
) -> Transcript:
    """Decode and transcribe (blocking). soundfile's types go through the app's own reader;
    the video containers (mp4, m4a, webm, mpeg) through PyAV."""
    if upload.suffix in SUPPORTED_SUFFIXES:
        try:
            return ctx.speech_input.transcribe_file(upload, language=language, timestamps=timed)
        except UserError as error:
            # The file's sentence names the client's file, not the scratch copy.
            if error.args and isinstance(error.args[0], str):
                error.args = (error.args[0].replace(upload.name, label), *error.args[1:])
            raise
    samples, rate = decode_with_av(upload, label=label, field="file")
    return ctx.speech_input.transcribe(samples, rate, language=language, timestamps=timed)


def _answer(transcript: Transcript, response_format: str) -> Response | dict[str, Any]:
    text = transcript.text.strip()
    if response_format == "text":
        return PlainTextResponse(text + "\n")
    if response_format == "srt":
        return PlainTextResponse(srt_text(transcript))
    if response_format == "vtt":
        return PlainTextResponse(vtt_text(transcript), media_type="text/vtt")
    if response_format == "verbose_json":
        return {
            "task": "transcribe",
            "language": transcript.language or "english",
            "duration": round(transcript.audio_seconds, 3),
            "text": text,
            "segments": [
                {
                    "id": index,
                    "seek": 0,
                    "start": round(segment.start, 3),
                    "end": round(segment.end, 3),
                    "text": segment.text,
                    "tokens": [],
                    "temperature": 0.0,
                    "avg_logprob": 0.0,
                    "compression_ratio": 0.0,
                    "no_speech_prob": 0.0,
                }
                for index, segment in enumerate(transcript.segments)
            ],
        }
    return {
        "text": text,
        "usage": {"type": "duration", "seconds": round(transcript.audio_seconds)},
    }


# ----- shared ------------------------------------------------------------------------------


def _check_model(requested: str | None, openai_names: tuple[str, ...], folder: Any) -> None:
    """Refuse a ``model`` that is neither one of OpenAI's names for this job nor the installed
    model's folder name (``folder`` gives it; it raises when none is installed)."""
    if not requested or requested in openai_names:
        return
    installed: Path = folder()
    if requested in (installed.name, str(installed)):
        return
    raise ApiError(
        404,
        f"There is no model '{requested}' for this; use {openai_names[0]} or {installed.name}.",
        param="model",
        code="model_not_found",
    )
