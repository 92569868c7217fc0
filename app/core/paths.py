"""Where OV Studio keeps its files: one place decides, everything else asks.

``OV_STUDIO_HOME`` redirects config, data, cache and logs into one folder (tests, portable
installs); otherwise the platform's user folders are used. Paths are always absolute, never
relative to the working directory (that breaks in a frozen app started from a shortcut).

Every folder of the app is private to the user (0700): config (settings, secrets), data
(conversations, voices, models, the database), cache (compiled models, converted files) and
logs (which quote prompts and file names). :meth:`AppPaths.ensure` creates them so and tightens
ones an older version made 0755 — never their parents, which are the user's folders, and never
a link (a folder the user moved elsewhere keeps the mode the user gave it). The folders of the
most private data — conversations, cloned voices, speech and videos in those voices
(:attr:`AppPaths.private_folders`) — are kept 0700 as well, in case they were loosened by
hand. On Windows the per-user AppData folders are private already; modes are not used there.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from app.core.errors import StorageError, UserError
from app.core.storage.atomic import private_folder, tighten
from app.core.texts import tr

APP_NAME = "ov-studio"
HOME_ENV = "OV_STUDIO_HOME"


@dataclass(frozen=True)
class AppPaths:
    """The folders the app writes to; call :meth:`ensure` before writing."""

    config: Path
    data: Path
    cache: Path
    logs: Path

    @classmethod
    def from_environment(cls, environ: dict[str, str] | None = None) -> AppPaths:
        """Folders from ``OV_STUDIO_HOME`` when set, else the platform's user folders.

        Raises:
            UserError: ``OV_STUDIO_HOME`` names no usable path (``~someone`` who does not
                exist, a symlink loop).
        """
        env = os.environ if environ is None else environ
        home = env.get(HOME_ENV, "").strip()
        if home:
            try:
                root = Path(home).expanduser().resolve()
            except (RuntimeError, OSError, ValueError) as error:
                reason = str(error).rstrip(".")
                raise UserError(
                    tr(
                        "{home_env} is set to {home!r}, which is not a usable folder "
                        "({reason}). Set {home_env} to a writable folder, or unset it."
                    ).format(home_env=HOME_ENV, home=home, reason=reason)
                ) from error
            return cls(root / "config", root / "data", root / "cache", root / "logs")
        import platformdirs

        return cls(
            config=Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)),
            data=Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)),
            cache=Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False)),
            logs=Path(platformdirs.user_log_dir(APP_NAME, appauthor=False)),
        )

    def ensure(self) -> None:
        """Create the app's folders that do not exist yet, private (0700), and make existing
        ones private.

        Never their parents (the user's own folders, or ``OV_STUDIO_HOME``); of the
        :attr:`private_folders` only those that exist are tightened: the code that writes
        there first creates them.

        Raises:
            StorageError: a folder cannot be created (a read-only home, a file in the way).
        """
        try:
            for folder in self.app_folders:
                private_folder(folder)
        except OSError as error:
            raise StorageError(
                tr(
                    "Cannot create the app's folders under {parent}: {reason}. Set {home_env} to "
                    "a writable folder."
                ).format(parent=self.data.parent, reason=error.strerror or error, home_env=HOME_ENV)
            ) from error
        for folder in self.private_folders:
            if folder.is_dir():  # a file in the way is said by whatever writes there
                tighten(folder)

    @property
    def app_folders(self) -> tuple[Path, ...]:
        """The four folders the app owns (everything it keeps is inside them), all 0700."""
        return (self.config, self.data, self.cache, self.logs)

    @property
    def private_folders(self) -> tuple[Path, ...]:
        """Folders of the user's private data, kept 0700: chats, voices, speech, videos,
        pictures."""
        return (
            self.conversations_dir,
            self.voices_dir,
            self.spoken_dir,
            self.avatar_dir,
            self.gallery_dir,
        )

    @property
    def settings_file(self) -> Path:
        """The user's settings (JSON)."""
        return self.config / "settings.json"

    @property
    def session_file(self) -> Path:
        """What the window brings back on its next start (JSON): its size and place, the
        panel shown, whether the server was on (:mod:`ui.shell.session`)."""
        return self.config / "session.json"

    @property
    def conversations_dir(self) -> Path:
        """One JSON file per chat conversation."""
        return self.data / "conversations"

    @property
    def models_dir(self) -> Path:
        """Models the app downloaded, converted or copied (one folder each)."""
        return self.data / "models"

    @property
    def toolchain_dir(self) -> Path:
        """The conversion toolchain's private environment, installed on demand
        (app.models.toolchain_env)."""
        return self.data / "tools"

    @property
    def model_registry(self) -> Path:
        """The list of installed models (JSON)."""
        return self.data / "models.json"

    @property
    def tool_listings(self) -> Path:
        """What each MCP tool server listed when last asked, and when (JSON)."""
        return self.data / "tool_listings.json"

    @property
    def voices_dir(self) -> Path:
        """One folder per cloned voice (embedding, reference clip, metadata)."""
        return self.data / "voices"

    @property
    def avatar_dir(self) -> Path:
        """Lip-synced videos the Avatar panel made (its gallery of recent results)."""
        return self.data / "avatar"

    @property
    def gallery_dir(self) -> Path:
        """Pictures the Create panel, the command line and the server made, each PNG carrying
        its settings, with their index (:mod:`app.images.gallery`)."""
        return self.data / "pictures"

    @property
    def spoken_dir(self) -> Path:
        """Speech the Voice panel handed to the Avatar panel (its newest few wavs)."""
        return self.data / "spoken"

    @property
    def compiled_cache(self) -> Path:
        """OpenVINO compiled-blob caches (``CACHE_DIR``), one sub-folder per model."""
        return self.cache / "compiled"

    @property
    def converted_cache(self) -> Path:
        """GGUF files converted to OpenVINO IR on their first load, one sub-folder per file."""
        return self.cache / "gguf"

    @property
    def grammar_verdicts(self) -> Path:
        """What each JSON answer's grammar cost when it was tried (pipelines.grammar_guard)."""
        return self.cache / "grammar"

    @property
    def scratch_dir(self) -> Path:
        """Results being written (renamed into place when complete) and spilled video frames:
        what a killed job leaves here is removed by the next one, out of the user's sight."""
        return self.cache / "scratch"

    @property
    def log_file(self) -> Path:
        """The rotating application log."""
        return self.logs / "ov-studio.log"
