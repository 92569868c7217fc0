"""Tools the chat model can call: MCP servers (configuration, client, the tool-call loop)."""
