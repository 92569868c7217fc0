"""The command line: one sub-command module each, argument parsing and exit codes."""
