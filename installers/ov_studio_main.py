"""The frozen app's entry script: the same ``app.__main__:main`` as ``python -m app``."""

import multiprocessing
import sys

from app.__main__ import main

if __name__ == "__main__":
    multiprocessing.freeze_support()  # a frozen child process must not reopen the window
    sys.exit(main())
