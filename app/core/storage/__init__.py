"""Storage primitives: atomic writes, damaged-file reading, redaction and the secret store."""
