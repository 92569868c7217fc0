"""Files the app keeps: atomic writes, JSON files that may be damaged, conversations, secrets."""
