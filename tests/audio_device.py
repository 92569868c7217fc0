"""A virtual sound card for tests: a private PulseAudio daemon with one null sink.

PortAudio reaches it through ALSA's ``pulse`` plugin (Debian: ``libasound2-plugins``, which
the ``pulseaudio`` package depends on). The sink ``ovs_null`` is the output and its monitor
source ``ovs_null.monitor`` is the input, so what is played can be recorded back, in real
time (the null sink has a clock).

**Pitfall**: an idle null sink renders in 2 s blocks, so a new recording of its monitor got its
first samples only after ~1.8 s (``parec`` too, whatever latency it asks for). A low-latency
recording kept open for the daemon's lifetime (``parec --latency-msec=10``, the *anchor*) holds
the sink at 10 ms blocks: the app's recorder then gets audio within ~25 ms.

The daemon runs as this user (root too, with ``--system=false``) in a temporary runtime folder
and is reached through ``PULSE_SERVER``, so it never touches a desktop's own sound server.
PortAudio scans devices once, when ``sounddevice`` is imported: after the daemon is up, the
fixture re-initialises PortAudio (``app.core.audio.devices.rescan``) and does so again on the way
out.

Tests that play or record use the ``sound_card`` fixture; when no virtual device can be made
they **fail** with the reason (missing packages, the daemon's log), they are never skipped.

**Two sinks** (``two_sinks`` fixture, for the spoken conversation): the app's playback must not
be the user's voice. A second null sink ``ovs_mouth`` is what the test says (:meth:`speak`),
and its monitor is the app's input; the app still plays to ``ovs_null``, recorded back with
:meth:`record_output`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from app.core.audio import devices as audio_devices
from app.core.audio.devices import AudioDevice

SINK = "ovs_null"
MOUTH = "ovs_mouth"
START_TIMEOUT_S = 60.0
"""For the daemon and its anchors: ~2 s, quiet or busy; polled, so a generous limit is free."""
ANCHOR_FORMAT = ("--format=s16le", "--channels=1", "--rate=8000")
INSTALL_HINT = "apt-get install pulseaudio pulseaudio-utils libportaudio2 (scripts/setup.sh --dev)"


class SoundCardError(RuntimeError):
    """The virtual sound card could not be started (the message says why)."""


class VirtualSoundCard:
    """A PulseAudio daemon with a null sink, reachable only by this process's children."""

    def __init__(self, *, mouth: bool = False) -> None:
        self.mouth = mouth
        """Whether the input is a second sink's monitor (:data:`MOUTH`) instead of the output's."""
        self.folder = Path(tempfile.mkdtemp(prefix="ovs-pulse-"))
        self.runtime = self.folder / "runtime"
        self.socket = self.runtime / "native"
        self.log_file = self.folder / "pulseaudio.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.anchors: list[subprocess.Popen[bytes]] = []
        self._saved_env: dict[str, str | None] = {}

    @property
    def env(self) -> dict[str, str]:
        """What a client needs to reach this daemon (and only it)."""
        return {
            "PULSE_SERVER": f"unix:{self.socket}",
            "PULSE_SINK": SINK,
            "PULSE_SOURCE": f"{MOUTH if self.mouth else SINK}.monitor",
        }

    @property
    def sinks(self) -> list[str]:
        """The null sinks of this card."""
        return [SINK, MOUTH] if self.mouth else [SINK]

    def start(self) -> None:
        """Start the daemon and wait until it answers.

        Raises:
            SoundCardError: pulseaudio is not installed, or it did not come up.
        """
        binary = shutil.which("pulseaudio")
        if binary is None:
            raise SoundCardError(f"pulseaudio is not installed: {INSTALL_HINT}")
        self.runtime.mkdir(mode=0o700, parents=True)
        home = self.folder / "home"
        home.mkdir()
        env = {
            **os.environ,
            "HOME": str(home),  # its cookie and state files stay in the temp folder
            "XDG_RUNTIME_DIR": str(self.runtime),
            "XDG_CONFIG_HOME": str(home / ".config"),
            "PULSE_RUNTIME_PATH": str(self.runtime),
        }
        command = [
            binary,
            "--daemonize=no",
            "--system=false",  # as root too: a per-user daemon, not the system instance
            "--exit-idle-time=-1",  # stays up between tests with no client connected
            "--disallow-exit",
            "--use-pid-file=false",
            "-n",  # no default.pa: only the modules below (no real hardware, no X11, no D-Bus)
            *(
                f"--load=module-null-sink sink_name={sink} rate=48000 channels=1"
                for sink in self.sinks
            ),
            f"--load=module-native-protocol-unix socket={self.socket} auth-anonymous=1",
            "--log-target=stderr",
            "--log-level=notice",
        ]
        with self.log_file.open("wb") as log:
            self.process = subprocess.Popen(
                command, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=log
            )
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SoundCardError(f"pulseaudio exited at start:\n{self.log()}")
            if self.socket.exists() and self._answers():
                for sink in self.sinks:
                    self._start_anchor(sink, deadline)
                return
            time.sleep(0.05)
        raise SoundCardError(f"pulseaudio did not answer in {START_TIMEOUT_S:.0f} s:\n{self.log()}")

    def _start_anchor(self, sink: str, deadline: float) -> None:
        """Keep a 10 ms recording of ``sink``'s monitor open (see the module's pitfall)."""
        parec = shutil.which("parec")
        if parec is None:
            raise SoundCardError(f"parec is not installed: {INSTALL_HINT}")
        anchor_file = self.folder / f"anchor-{sink}.raw"
        with anchor_file.open("wb") as out:
            anchor = subprocess.Popen(
                [parec, f"--device={sink}.monitor", *ANCHOR_FORMAT, "--latency-msec=10"],
                env={**os.environ, **self.env},
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.DEVNULL,
            )
        self.anchors.append(anchor)
        while time.monotonic() < deadline:  # its first samples: the sink has switched
            if anchor_file.stat().st_size > 0:
                return
            if anchor.poll() is not None:
                raise SoundCardError(f"parec could not record the null sink:\n{self.log()}")
            time.sleep(0.05)
        raise SoundCardError(f"parec got no audio from the null sink:\n{self.log()}")

    def _answers(self) -> bool:
        pactl = shutil.which("pactl")
        if pactl is None:
            return True  # the socket exists; PortAudio's own scan below is the real test
        result = subprocess.run(
            [pactl, "info"],
            env={**os.environ, **self.env},
            capture_output=True,
            timeout=5,
            check=False,
        )
        return result.returncode == 0

    def log(self) -> str:
        """The daemon's log so far."""
        return self.log_file.read_text(errors="replace") if self.log_file.exists() else ""

    def attach(self) -> None:
        """Point this process at the daemon and make PortAudio list it."""
        for key, value in self.env.items():
            self._saved_env[key] = os.environ.get(key)
            os.environ[key] = value
        audio_devices.rescan()

    def detach(self) -> None:
        """Undo :meth:`attach`: the environment as it was, PortAudio scanned again."""
        for key, value in self._saved_env.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        self._saved_env.clear()

    def stop(self) -> None:
        """Stop the daemon (and the anchor) and remove its folder."""
        for process in (*self.anchors, self.process):
            if process is not None and process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(timeout=5)
        self.anchors, self.process = [], None
        shutil.rmtree(self.folder, ignore_errors=True)

    # ----- what tests do with it -----------------------------------------------------------

    def input(self) -> AudioDevice:
        """The PortAudio input that records the sink's monitor."""
        return _pulse_device(audio_devices.input_devices(), "input", self)

    def output(self) -> AudioDevice:
        """The PortAudio output that plays into the sink."""
        return _pulse_device(audio_devices.output_devices(), "output", self)

    def play(
        self, samples: npt.NDArray[np.floating], rate: int, sink: str = SINK
    ) -> subprocess.Popen[bytes]:
        """Play ``samples`` into ``sink`` with ``pacat`` (independent of the app's Player).

        Returns the running ``pacat``; the caller waits for it (or terminates it).
        """
        pacat = shutil.which("pacat")
        if pacat is None:
            raise SoundCardError(f"pacat is not installed: {INSTALL_HINT}")
        data = np.asarray(samples, dtype="<f4").reshape(-1).tobytes()
        process = subprocess.Popen(
            [pacat, "--playback", f"--device={sink}", *float_format(rate)],
            env={**os.environ, **self.env},
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        assert process.stdin is not None
        process.stdin.write(data)
        process.stdin.close()
        return process

    def speak(self, samples: npt.NDArray[np.floating], rate: int) -> subprocess.Popen[bytes]:
        """Say ``samples`` into the app's microphone (the mouth sink; needs ``mouth=True``)."""
        assert self.mouth, "speak() needs the two-sink card (two_sinks fixture)"
        return self.play(samples, rate, MOUTH)

    def record_output(self) -> OutputRecording:
        """Start recording what the app plays (the output sink's monitor); stop it with
        :meth:`OutputRecording.stop`."""
        return OutputRecording(self)


class OutputRecording:
    """``parec`` of the output sink's monitor, every sample dated on ``time.perf_counter``.

    Each chunk read is dated when it arrives (the anchor keeps the sink at 10 ms blocks and
    this recording asks for 10 ms too): a sample's time is its chunk's arrival less the samples
    after it, good to ~20 ms.
    """

    RATE = 16_000

    def __init__(self, card: VirtualSoundCard) -> None:
        parec = shutil.which("parec")
        if parec is None:
            raise SoundCardError(f"parec is not installed: {INSTALL_HINT}")
        self._process = subprocess.Popen(
            [parec, f"--device={SINK}.monitor", *float_format(self.RATE), "--latency-msec=10"],
            env={**os.environ, **card.env},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self._chunks: list[bytes] = []
        self._arrivals: list[tuple[int, float]] = []  # (samples so far, perf_counter)
        self._reader = threading.Thread(target=self._read, name="output-recording", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self._process.stdout is not None
        total = 0
        while chunk := self._process.stdout.read1(4096):  # type: ignore[attr-defined]
            self._chunks.append(chunk)
            total += len(chunk)
            self._arrivals.append((total // 4, time.perf_counter()))

    @property
    def latest(self) -> float:
        """When the newest sample arrived (0 before any)."""
        return self._arrivals[-1][1] if self._arrivals else 0.0

    def stop(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float64]]:
        """End the recording: its samples and each sample's ``perf_counter`` time."""
        self._process.terminate()
        self._process.wait(timeout=5)
        self._reader.join(timeout=5)
        data = b"".join(self._chunks)
        samples = np.frombuffer(data[: len(data) // 4 * 4], "<f4").astype(np.float32)
        times = np.zeros(samples.size)
        start = 0
        for end, arrived in self._arrivals:
            end = min(end, samples.size)
            times[start:end] = arrived - (end - np.arange(start, end)) / self.RATE
            start = end
        return samples, times


def float_format(rate: int) -> list[str]:
    """pacat/parec arguments for float32 mono at ``rate``."""
    return ["--format=float32le", f"--rate={rate}", "--channels=1"]


def _pulse_device(devices: list[AudioDevice], kind: str, card: VirtualSoundCard) -> AudioDevice:
    for device in devices:
        if device.name == "pulse":
            return device
    listed = ", ".join(d.name for d in devices) or "none"
    raise SoundCardError(
        f"PortAudio lists no 'pulse' {kind} device (it lists: {listed}). Is libasound2-plugins "
        f"(ALSA's pulse plugin) installed? Daemon log:\n{card.log()}"
    )


def tone(seconds: float, frequency: float, rate: int = 16_000, level: float = 0.5) -> np.ndarray:
    """A sine tone (float32)."""
    t = np.arange(int(seconds * rate)) / rate
    return (level * np.sin(2 * np.pi * frequency * t)).astype(np.float32)


def dominant_frequency(samples: npt.NDArray[np.floating], rate: int) -> float:
    """The strongest frequency in ``samples`` (Hz)."""
    data = np.asarray(samples, dtype=np.float64)
    spectrum = np.abs(np.fft.rfft(data * np.hanning(data.size)))
    return float(np.fft.rfftfreq(data.size, 1.0 / rate)[int(np.argmax(spectrum))])


def start_card(*, mouth: bool = False) -> VirtualSoundCard:
    """A running virtual sound card that PortAudio lists (input and output); fails (never
    skips) the test with the reason when one cannot be made. End it with :func:`end_card`.

    Args:
        mouth: the input is a second sink (see the module's "Two sinks").
    """
    card = VirtualSoundCard(mouth=mouth)
    try:
        card.start()
        card.attach()
        card.input()
        card.output()
    except SoundCardError as error:
        end_card(card)
        pytest.fail(f"no virtual sound card: {error}", pytrace=False)
    return card


def end_card(card: VirtualSoundCard) -> None:
    """Stop ``card`` and point PortAudio back at what the machine really has."""
    card.detach()
    card.stop()
    audio_devices.rescan()


@pytest.fixture(scope="module")
def sound_card() -> Iterator[VirtualSoundCard]:
    """A running virtual sound card that PortAudio lists (input and output).

    Module-scoped: each test module that plays or records gets its own daemon. Fails (never
    skips) with the reason when one cannot be made.
    """
    card = start_card()
    yield card
    end_card(card)


@pytest.fixture
def lost_card() -> Iterator[VirtualSoundCard]:
    """A virtual sound card of the test's own, which it stops to lose its devices."""
    card = start_card()
    yield card
    end_card(card)


@pytest.fixture(scope="module")
def two_sinks() -> Iterator[VirtualSoundCard]:
    """A virtual sound card whose input is not its output: the app plays to ``ovs_null``
    (:meth:`~VirtualSoundCard.record_output`) and hears ``ovs_mouth``
    (:meth:`~VirtualSoundCard.speak`). Module-scoped; fails (never skips) as ``sound_card``."""
    card = start_card(mouth=True)
    yield card
    end_card(card)
