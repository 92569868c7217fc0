"""MCP tools in the window: servers, the chat's tools button, calls shown, confirmation."""
