"""The frozen app's entry script: the same ``app.__main__:main`` as ``python -m app``.

Hidden flags come first: ``--grammar-probe`` runs the JSON-grammar probe's child process
(``pipelines.grammar_probe``: the app starts it to try a new grammar), and two are for the
build checks only (installers/bundle_check.py): ``--bundle-check`` and the MCP server it
starts, ``--bundle-check-mcp-server``.
"""

import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()  # a frozen child process must not reopen the window
    if sys.argv[1:2] == ["--grammar-probe"]:
        from pipelines.grammar_probe_child import main as grammar_probe

        grammar_probe()  # exits
    if sys.argv[1:2] and sys.argv[1].startswith("--bundle-check"):
        from bundle_check import main as bundle_check

        sys.exit(bundle_check(sys.argv[1:]))
    from app.__main__ import main

    sys.exit(main())
