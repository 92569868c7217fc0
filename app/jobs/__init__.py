"""Qt-free job functions the panels run off the GUI thread (plain functions, cancel tokens)."""
