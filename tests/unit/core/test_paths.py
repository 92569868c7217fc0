"""Where the app keeps its files: an OV_STUDIO_HOME that cannot be used is one sentence
(issue 12)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.errors import StorageError, UserError
from app.core.paths import HOME_ENV, AppPaths


@pytest.mark.parametrize("home", ["~no-such-user-ov/x", "{tmp}/loop/x"], ids=["user", "loop"])
def test_a_home_that_names_no_path_is_one_sentence(tmp_path: Path, home: str) -> None:
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    with pytest.raises(UserError) as caught:
        AppPaths.from_environment({HOME_ENV: home.format(tmp=tmp_path)})
    message = str(caught.value)
    assert message.startswith(f"{HOME_ENV} is set to ") and "\n" not in message
    assert message.endswith("Set OV_STUDIO_HOME to a writable folder, or unset it.")


def test_a_home_that_cannot_be_created_is_one_sentence(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    paths = AppPaths.from_environment({HOME_ENV: str(blocker / "home")})
    with pytest.raises(StorageError, match=r"Not a directory\. Set OV_STUDIO_HOME to a writable"):
        paths.ensure()
