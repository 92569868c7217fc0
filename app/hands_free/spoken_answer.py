"""An answer spoken while it streams: sentences → cloned voice (→ lip-sync) → played in order.

The chat's ``on_text`` feeds :meth:`SpokenAnswer.feed`; a :class:`SentenceStream` turns the
chunks into sentences the moment they are complete, and one worker thread speaks them in order
with :func:`~app.avatar.speaking.speak` (with a face, each one lip-synced too).

**Where the audio plays.** Without a face, each sentence goes to a :class:`Player` as soon as it
is synthesised; the player is opened at :meth:`~SpokenAnswer.start`, so the first sentence is
heard while the model is still writing the second. With a face, each clip (an mp4 with the
sentence's audio muxed in) goes to ``on_clip`` and the UI plays it: one media player for both
picture and sound keeps the lips on the syllables by construction, where a separate PortAudio
stream would have to be kept in step with Qt's video clock. So with a face the first audio is
the first clip's first frame (they start together), and the UI stops its own player on
barge-in.

**Barge-in.** :meth:`~SpokenAnswer.interrupt` stops the player at once (PortAudio abort: no
buffered audio is drained), cancels the synthesis, the lip-sync and the chat generation (the
chat's :class:`CancelToken`), and returns without waiting for the worker; what was heard so far
is :attr:`~SpokenAnswer.spoken_text`.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from app.avatar.service import AvatarClip, AvatarService
from app.avatar.speaking import Face, SpokenPiece, speak
from app.core.audio.devices import Float32Array
from app.core.audio.playback import Player
from app.core.errors import UserError
from app.core.model_tasks import ModelTask
from app.core.performance.metrics import MetricsBus
from app.core.texts import tr
from app.hands_free.figures import AnswerFigures
from app.hands_free.sentence_stream import SentenceStream
from app.voice.service import VoiceService
from app.voice.speech_files import pause_samples
from pipelines.core import Cancelled, CancelToken

log = logging.getLogger(__name__)

ClipCallback = Callable[[AvatarClip], None]
_END = None
"""Put on the sentence queue: no more sentences (the answer ended or was interrupted)."""


class SpokenAnswer:
    """One answer spoken sentence by sentence while the chat model writes it.

    Use: :meth:`start` (checks everything, before any audio), :meth:`feed` from the chat's
    ``on_text``, :meth:`finish` when the answer is complete, :meth:`wait` for the last word,
    :meth:`close` (always; it also interrupts an answer still going).
    """

    def __init__(
        self,
        voice: VoiceService,
        speaker: str | Float32Array,
        metrics: MetricsBus,
        *,
        avatar: AvatarService | None = None,
        face: Path | None = None,
        on_clip: ClipCallback | None = None,
        output_device: int | None = None,
        speech_ended_at: float | None = None,
        stt_seconds: float | None = None,
        generation: CancelToken | None = None,
        tts_device: str | None = None,
        lipsync_device: str | None = None,
        held: bool = False,
    ) -> None:
        """
        Args:
            voice: speaks the sentences.
            speaker: a voice's name in the library, or a speaker embedding.
            metrics: where the ``conversation`` record goes when the answer ends.
            avatar: lip-syncs the sentences when ``face`` is given.
            face: the avatar's face image; None speaks audio only.
            on_clip: receives each lip-synced clip in order (from the worker thread).
            output_device: the speaker for audio-only answers (None: the default).
            speech_ended_at: ``time.perf_counter()`` when the user's speech ended (typed
                input: when it was sent); the latency figures count from here.
            stt_seconds: how long the user's speech took to transcribe (for the figures).
            generation: the chat's cancel token, set on :meth:`interrupt`.
            held: synthesise (and lip-sync) but let nothing be heard or seen until
                :meth:`release` — an answer prepared while the user may still go on; one
                interrupted before its release publishes no figures either.
        """
        self._voice = voice
        self._speaker = speaker
        self._metrics = metrics
        self._avatar = avatar
        self._face = face
        self._on_clip = on_clip
        self._output_device = output_device
        self._tts_device = tts_device
        self._lipsync_device = lipsync_device
        self._generation = generation
        self._figures = AnswerFigures(
            speech_ended_at if speech_ended_at is not None else time.perf_counter(),
            stt_seconds=stt_seconds,
        )
        self._stream = SentenceStream()
        self._sentences: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._cancel = CancelToken()
        self._player: Player | None = None
        self._worker: threading.Thread | None = None
        self._lock = threading.Lock()
        self._queued: list[tuple[tuple[int, int], str]] = []
        """Audio-only: (label, text) of every piece handed to the player, in order."""
        self._clips: list[AvatarClip] = []
        self._device = ""
        self._error: BaseException | None = None
        self._released = not held
        self._gate = threading.Event()
        """Set: the pieces may be played or shown (released, or interrupted)."""
        if not held:
            self._gate.set()

    # ----- the caller's side -----------------------------------------------------------

    def start(self) -> None:
        """Check the voice, the models, the face and the speaker, then start the worker.

        Raises:
            UserError: unknown voice, no text-to-speech model, no lip-sync model, a missing
                face, no audio device — one sentence, before any audio.
        """
        if isinstance(self._speaker, str):
            self._voice.check_voice(self._speaker)
        self._voice.model_folder(ModelTask.TTS)
        self._device = self._voice.device(self._tts_device)
        if self._face is not None:
            if self._avatar is None:
                raise ValueError("a face needs the avatar service")
            if not self._face.is_file():
                raise UserError(
                    tr(
                        "The avatar's face {face} is missing: choose another in the Avatar panel."
                    ).format(face=self._face),
                    field="face",
                )
            self._avatar.model_folder()
            self._avatar.device(self._lipsync_device)
        else:
            player = Player(self._output_device)
            player.start()  # plays silence until the first sentence: no start-up delay then
            self._player = player
        self._worker = threading.Thread(
            target=self._run, args=(self._speaker,), name="spoken-answer", daemon=True
        )
        self._worker.start()

    def feed(self, chunk: str) -> None:
        """Text streamed by the chat model (from its ``on_text`` thread)."""
        if self._cancel.cancelled:
            return
        for sentence in self._stream.feed(chunk):
            self._queue(sentence)

    def finish(self) -> None:
        """The answer is complete: speak what is left, then end."""
        if not self._cancel.cancelled:
            for sentence in self._stream.finish():
                self._queue(sentence)
        self._sentences.put(_END)

    def release(self) -> None:
        """A held answer may be heard now (the user's turn is over); any thread."""
        self._released = True
        self._gate.set()

    def interrupt(self) -> None:
        """Barge-in: silence now, and stop synthesis, lip-sync and generation (safe from any
        thread, any number of times; returns at once)."""
        self._cancel.cancel()
        self._gate.set()
        if self._generation is not None:
            self._generation.cancel()
        if self._player is not None:
            self._player.stop()
        self._sentences.put(_END)

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the last sentence was played (or the answer was interrupted).

        Returns:
            False on timeout.

        Raises:
            UserError: synthesis or lip-sync failed (the answer was stopped).
        """
        if self._worker is not None:
            self._worker.join(timeout)
            if self._worker.is_alive():
                return False
        if self._error is not None:
            raise self._error
        return True

    def close(self) -> None:
        """Interrupt what is still going, wait for the worker, release the audio device."""
        if self._worker is not None and self._worker.is_alive():
            self.interrupt()
            self._worker.join()
        if self._player is not None:
            self._player.close()

    @property
    def heard(self) -> bool:
        """Some of the answer has been played (or its first clip shown)."""
        return self.figures.first_audio_at is not None

    @property
    def interrupted(self) -> bool:
        """Whether :meth:`interrupt` was called (or a failure stopped the answer)."""
        return self._cancel.cancelled

    @property
    def spoken(self) -> list[str]:
        """What was said so far: the pieces whose audio started playing (with a face: the
        clips handed to ``on_clip``), in order."""
        with self._lock:
            if self._player is None:
                return [clip.text for clip in self._clips]
            queued = list(self._queued)
        started = set(self._player.played)
        return [text for label, text in queued if label in started]

    @property
    def spoken_text(self) -> str:
        """:attr:`spoken` as one text."""
        return " ".join(self.spoken)

    @property
    def figures(self) -> AnswerFigures:
        """The latency figures so far (first audio from the player, when it has started)."""
        with self._lock:
            figures = self._figures
        if self._player is not None and figures.first_audio_at is None:
            started = self._player.started_at((0, 0))
            if started is not None:
                figures = figures.with_first_audio(started)
        return figures

    # ----- the worker ------------------------------------------------------------------

    def _queue(self, sentence: str) -> None:
        now = time.perf_counter()
        with self._lock:  # the worker updates the figures too
            if self._figures.first_sentence_at is None:
                self._figures = self._figures.with_first_sentence(now)
        self._sentences.put(sentence)

    def _run(self, speaker: str | Float32Array) -> None:
        """Speak the queued sentences (a voice by name: a Kokoro preset is spoken as such)."""
        face = None
        if self._face is not None:
            assert self._avatar is not None  # checked by start()
            face = Face(self._avatar, self._face, self._lipsync_device)
        sentences = iter(self._sentences.get, _END)
        pieces = speak(
            self._voice,
            sentences,
            speaker,
            face=face,
            device=self._tts_device,
            cancel=self._cancel,
        )
        try:
            for piece in pieces:
                if piece.index == 0:
                    with self._lock:
                        self._figures = self._figures.with_tts(piece.synthesis_seconds)
                if piece.clip is None:
                    self._await_release()
                    self._play(piece)
                else:
                    self._show(piece, piece.clip)
            if self._player is not None:
                self._player.end()
                self._player.wait()  # the figures need the first audio to have started
        except Cancelled:
            pass  # interrupted: interrupt() has silenced everything already
        except Exception as error:  # re-raised by wait(), on the caller's thread
            log.warning(
                "the spoken answer failed: %s", error, exc_info=not isinstance(error, UserError)
            )
            self._error = error
            self.interrupt()
        finally:
            pieces.close()
            if self._released:  # else it was never heard: nothing to report
                self._metrics.publish(self.figures.record(self._device))

    def _await_release(self) -> None:
        """Hold a piece until the answer is released (at once unless ``held``)."""
        self._gate.wait()
        if self._cancel.cancelled:
            raise Cancelled()

    def _play(self, piece: SpokenPiece) -> None:
        assert self._player is not None
        label = (piece.index, piece.part)
        with self._lock:
            self._queued.append((label, piece.text))
        if piece.index and not piece.part:  # a reader's pause between sentences
            self._player.put(np.zeros(pause_samples(piece.rate), np.float32), rate=piece.rate)
        self._player.put(piece.samples, label, rate=piece.rate)

    def _show(self, piece: SpokenPiece, clip: AvatarClip) -> None:
        self._await_release()
        ready = time.perf_counter()
        with self._lock:
            if not self._clips:
                self._figures = self._figures.with_first_clip(piece.lipsync_seconds or 0.0, ready)
            self._clips.append(clip)
        if self._on_clip is not None:
            self._on_clip(clip)
