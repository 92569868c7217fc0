"""Passwords are masked in every form a connection string can take."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    "text",
    [
        "postgresql://ana:SECRET@db/k",
        "postgres://ana:SEC%40RET@db:5432/k?sslmode=require",
        "host=db user=ana password=SECRET dbname=k",
        "host=db password='SEC RET' dbname=k",
        "postgresql://db/k?user=ana&password=SECRET&sslmode=require",
        '{"database_url": "postgresql://ana:SEC\\"RET@db/k", "chat": ',
        '{"api_token": "SECRET", "db_password": "SECRET"',
    ],
)
def test_passwords_are_masked_in_every_form(text: str) -> None:
    from app.core.storage.redaction import redact_text

    masked = redact_text(text)
    assert "SEC" not in masked and "REDACTED" in masked
    assert "db" in masked  # the rest stays readable
