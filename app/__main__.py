"""``python -m app`` and the ``ov-studio`` console script."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Start OV Studio: the window with no command, a headless command otherwise."""
    from app.cli.main import main as cli_main

    return cli_main(argv)


if __name__ == "__main__":
    sys.exit(main())
