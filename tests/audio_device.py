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
fixture re-initialises PortAudio (``app.audio.devices.rescan``) and does so again on the way out.

Tests that play or record use the ``sound_card`` fixture; when no virtual device can be made
they **fail** with the reason (missing packages, the daemon's log), they are never skipped.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from app.audio import devices as audio_devices
from app.audio.devices import AudioDevice

SINK = "ovs_null"
START_TIMEOUT_S = 10.0
INSTALL_HINT = "apt-get install pulseaudio pulseaudio-utils libportaudio2 (scripts/setup.sh --dev)"


class SoundCardError(RuntimeError):
    """The virtual sound card could not be started (the message says why)."""


class VirtualSoundCard:
    """A PulseAudio daemon with a null sink, reachable only by this process's children."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="ovs-pulse-"))
        self.runtime = self.folder / "runtime"
        self.socket = self.runtime / "native"
        self.log_file = self.folder / "pulseaudio.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.anchor: subprocess.Popen[bytes] | None = None
        self.anchor_file = self.folder / "anchor.raw"
        self._saved_env: dict[str, str | None] = {}

    @property
    def env(self) -> dict[str, str]:
        """What a client needs to reach this daemon (and only it)."""
        return {
            "PULSE_SERVER": f"unix:{self.socket}",
            "PULSE_SINK": SINK,
            "PULSE_SOURCE": f"{SINK}.monitor",
        }

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
            f"--load=module-null-sink sink_name={SINK} rate=48000 channels=1",
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
                self._start_anchor(deadline)
                return
            time.sleep(0.05)
        raise SoundCardError(f"pulseaudio did not answer in {START_TIMEOUT_S:.0f} s:\n{self.log()}")

    def _start_anchor(self, deadline: float) -> None:
        """Keep a 10 ms recording of the monitor open (see the module's pitfall)."""
        parec = shutil.which("parec")
        if parec is None:
            raise SoundCardError(f"parec is not installed: {INSTALL_HINT}")
        with self.anchor_file.open("wb") as sink:
            self.anchor = subprocess.Popen(
                [parec, "--format=s16le", "--channels=1", "--rate=8000", "--latency-msec=10"],
                env={**os.environ, **self.env},
                stdin=subprocess.DEVNULL,
                stdout=sink,
                stderr=subprocess.DEVNULL,
            )
        while time.monotonic() < deadline:  # its first samples: the sink has switched
            if self.anchor_file.stat().st_size > 0:
                return
            if self.anchor.poll() is not None:
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
        for process in (self.anchor, self.process):
            if process is not None and process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(timeout=5)
        self.anchor = self.process = None
        shutil.rmtree(self.folder, ignore_errors=True)

    # ----- what tests do with it -----------------------------------------------------------

    def input(self) -> AudioDevice:
        """The PortAudio input that records the sink's monitor."""
        return _pulse_device(audio_devices.input_devices(), "input", self)

    def output(self) -> AudioDevice:
        """The PortAudio output that plays into the sink."""
        return _pulse_device(audio_devices.output_devices(), "output", self)

    def play(self, samples: npt.NDArray[np.floating], rate: int) -> subprocess.Popen[bytes]:
        """Play ``samples`` into the sink with ``pacat`` (independent of the app's Player).

        Returns the running ``pacat``; the caller waits for it (or terminates it).
        """
        pacat = shutil.which("pacat")
        if pacat is None:
            raise SoundCardError(f"pacat is not installed: {INSTALL_HINT}")
        data = np.asarray(samples, dtype="<f4").reshape(-1).tobytes()
        process = subprocess.Popen(
            [pacat, "--playback", "--format=float32le", f"--rate={rate}", "--channels=1"],
            env={**os.environ, **self.env},
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        assert process.stdin is not None
        process.stdin.write(data)
        process.stdin.close()
        return process


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


def start_card() -> VirtualSoundCard:
    """A running virtual sound card that PortAudio lists (input and output); fails (never
    skips) the test with the reason when one cannot be made. End it with :func:`end_card`."""
    card = VirtualSoundCard()
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
