"""Voice pipelines: reference clips, speaker embeddings (x-vector) and speech synthesis."""
