"""The embedded server's URI: its socket folder encoded."""

from __future__ import annotations

from app.knowledge.database.embedded import server_uri
from app.knowledge.database.pidfile import parse_postmaster
from tests.unit.knowledge.database.test_socket_folder import unix_only


@unix_only
def test_uri_of_a_socket_folder_is_encoded() -> None:
    postmaster = parse_postmaster("12\n/d\n1\n5432\n/tmp/a b%c\n\n1 2\nready\n")
    assert postmaster is not None
    uri = server_uri(postmaster, "template1")
    assert uri == "postgresql://postgres:@/template1?host=/tmp/a%20b%25c&port=5432"
    from psycopg.conninfo import conninfo_to_dict

    assert conninfo_to_dict(uri)["host"] == "/tmp/a b%c"
