"""Remote endpoint settings: addresses, device values, and keys kept out of the settings."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from app.core.errors import UserError
from app.core.remote_endpoints import RemoteEndpoint, device_value, find_endpoint, is_remote
from app.core.storage.secrets import SecretStore
from app.engines.remote.config import key_name, read_key, save_key


def test_an_address_must_be_http_with_a_host() -> None:
    assert RemoteEndpoint(name=" a  b ", base_url="https://x.lan/v1/ ").base_url == (
        "https://x.lan/v1"
    )
    assert RemoteEndpoint(name=" a  b ", base_url="http://x/v1").name == "a b"
    for wrong in ("ftp://x/v1", "x.lan/v1", "http:///v1"):
        with pytest.raises(ValidationError, match="must start with http"):
            RemoteEndpoint(name="a", base_url=wrong)


def test_a_settings_file_cannot_smuggle_control_characters_into_an_endpoint() -> None:
    """A hand-edited file is held to what the dialog refuses (the dialog's own checks are in
    tests/ui/widgets/test_connection_form.py)."""
    with pytest.raises(ValidationError, match="address has a control character"):
        RemoteEndpoint(name="a", base_url="http://ovms\x00.lan/v3")
    with pytest.raises(ValidationError, match="name has a control character"):
        RemoteEndpoint(name="a\x1b[31mb", base_url="http://ovms.lan/v3")


def test_device_values_name_endpoints_case_blind() -> None:
    ovms = RemoteEndpoint(name="OVMS", base_url="http://x/v3")
    assert is_remote(device_value("OVMS")) and is_remote("remote:ovms")
    assert not is_remote("CPU") and not is_remote("AUTO")
    assert find_endpoint("REMOTE:ovms", [ovms]) is ovms
    with pytest.raises(UserError, match="no remote endpoint called “vllm” \\(configured: OVMS\\)"):
        find_endpoint("REMOTE:vllm", [ovms])


def test_keys_live_in_the_secret_store(tmp_path: Path) -> None:
    secrets = SecretStore(tmp_path / "secrets.json", use_keyring=False)
    save_key(secrets, "OVMS", "sk-123")
    assert read_key(secrets, "ovms") == "sk-123"
    assert secrets.get(key_name("OVMS")) == "sk-123"
    save_key(secrets, "OVMS", "")  # an emptied key is forgotten
    assert read_key(secrets, "OVMS") == ""
    assert "sk-123" not in (tmp_path / "secrets.json").read_text(encoding="utf-8")
