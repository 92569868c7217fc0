"""The local server in the window: its switch in the status bar and its settings."""
