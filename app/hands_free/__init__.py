"""The spoken conversation: an answer spoken sentence by sentence while it streams."""
