"""How documents become searchable and answers get their sources: indexing, ingest reports and
grounding."""
