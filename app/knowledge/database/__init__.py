"""The knowledge database: the embedded PostgreSQL's lifecycle, a shared server's connection and
the schema's migrations."""
