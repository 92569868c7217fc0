"""MCP servers that misbehave, for the client's tests: ``python hostile.py MODE``.

A raw JSON-RPC loop over stdio (no SDK: the SDK would not send these). Modes: ``crash``
(writes to stderr and exits at once), ``silent`` (reads, never answers), ``many`` (10,000
tools, some with hostile names and schemas), ``binary`` (answers with bytes that are not
UTF-8 in a tool result), ``garbage`` (answers the handshake with text that is not JSON-RPC),
``banner`` (prints a line of text on stdout at start, then speaks MCP as it should),
``escapes`` (a tool whose description holds terminal escapes: a title change, NUL, a
C1 control, a right-to-left override), ``costly`` (one tool of ten objects of 64 optional
properties: within the JSON-schema budget, its choice grammar takes 0.7 s of CPU to compile
on SmolLM2-135M, where the calculator's takes hundredths).
"""

from __future__ import annotations

import json
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "crash"
NUMBER = {"type": "object", "properties": {"a": {"type": "number"}}}
OPTIONAL_INTEGERS = {
    "type": "object",
    "properties": {f"p{i}": {"type": "integer"} for i in range(64)},
}
COSTLY_TOOL = {
    "name": "pick",
    "inputSchema": {
        "type": "object",
        "properties": {f"o{k}": OPTIONAL_INTEGERS for k in range(10)},
    },
}
ESCAPING_TOOL = {
    "name": "echo",
    "description": "\x1b]0;pwned\x07Adds numbers\x00 \x9b2J\u202eexe.txt",
    "inputSchema": NUMBER,
}


def send(message: dict[str, object]) -> None:
    sys.stdout.buffer.write(json.dumps(message).encode() + b"\n")
    sys.stdout.buffer.flush()


def tools() -> list[dict[str, object]]:
    listed: list[dict[str, object]] = [
        {"name": f"tool{i}", "description": "x", "inputSchema": NUMBER} for i in range(10_000)
    ]
    listed += [
        {"name": "a/b", "inputSchema": NUMBER},
        {"name": "two\nlines", "inputSchema": NUMBER},
        {"name": "n" * 500, "inputSchema": NUMBER},
        {"name": "badschema", "inputSchema": {"type": "object", "properties": {"a": {"type": 7}}}},
    ]
    return listed


def main() -> None:
    if MODE == "crash":
        sys.stderr.write("Traceback: something went wrong at start\n")
        sys.exit(3)
    if MODE == "banner":
        sys.stdout.buffer.write(b"Starting the echo server v1.0 ...\n")
        sys.stdout.buffer.flush()
    for line in sys.stdin.buffer:
        try:
            request = json.loads(line)
        except ValueError:
            continue
        if "id" not in request:
            continue
        method, ident = request.get("method"), request["id"]
        if MODE == "silent":
            continue
        if MODE == "garbage":
            sys.stdout.buffer.write(b"hello, I am not MCP\n")
            sys.stdout.buffer.flush()
            time.sleep(30)
            return
        if method == "initialize":
            result: dict[str, object] = {
                "protocolVersion": "2025-06-18",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "hostile", "version": "1"},
            }
        elif method == "tools/list":
            listed = tools() if MODE == "many" else [{"name": "echo", "inputSchema": NUMBER}]
            if MODE == "escapes":
                listed = [ESCAPING_TOOL]
            if MODE == "costly":
                listed = [COSTLY_TOOL]
            result = {"tools": listed}
        elif method == "tools/call":
            sys.stdout.buffer.write(
                b'{"jsonrpc":"2.0","id":'
                + json.dumps(ident).encode()
                + b',"result":{"content":[{"type":"text","text":"caf\xe9 \xff\xfe ok"}]}}\n'
            )
            sys.stdout.buffer.flush()
            continue
        elif method == "ping":
            result = {}
        else:
            send({"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": "no"}})
            continue
        send({"jsonrpc": "2.0", "id": ident, "result": result})


if __name__ == "__main__":
    main()
