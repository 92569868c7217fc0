"""The user's cloned voices on disk and the speech clips kept for the Avatar panel."""
