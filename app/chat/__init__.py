"""Chat: conversations and their storage, the chat model, answers (with tools, images and JSON)."""
