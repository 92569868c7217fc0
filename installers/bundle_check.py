"""The frozen app's check of what it carries but nothing in ``--smoke-test`` reaches.

``ov-studio --bundle-check`` (handled by the entry script before the app's own arguments, so
it shows in no help) runs, inside the frozen program:

- jsonschema with its meta-schemas (``jsonschema_specifications`` data files): schemas of two
  drafts are checked against their meta-schema, one instance passes and one is refused;
- the MCP SDK's clients for real: a stdio round trip with this same program started as a tiny
  MCP server (``--bundle-check-mcp-server``), and a streamable-HTTP round trip with the same
  server served by uvicorn on a free local port;
- OpenCV next to PyAV: the spec points OpenCV's FFmpeg libraries at PyAV's (one FFmpeg in the
  bundle), so an image is decoded and resized, and a video PyAV wrote is read back by OpenCV;
- OCR on the compact models the bundle carries instead of rapidocr's ONNX files: a line of
  printed text is read back.

Prints one ``bundle check passed`` line (exit 0) or one line per problem on stderr (exit 1).
Run from a source checkout as ``python installers/ov_studio_main.py --bundle-check``.
"""

from __future__ import annotations

import asyncio
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

CHECK_FLAG = "--bundle-check"
SERVER_FLAG = "--bundle-check-mcp-server"
TIMEOUT_S = 60.0


def _server() -> Any:
    """A one-tool MCP server (the SDK's own MCPServer): ``add`` two integers."""
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("ov-studio-bundle-check", log_level="WARNING")

    @server.tool()
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    return server


def serve_stdio() -> int:
    """Serve the check's MCP server on stdin/stdout until the client closes them."""
    _server().run("stdio")
    return 0


def check_jsonschema() -> str:
    """Schemas checked against their drafts' meta-schemas; one instance passes, one fails."""
    import jsonschema
    from jsonschema.validators import validator_for

    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"city": {"type": "string"}, "days": {"type": "integer", "minimum": 1}},
        "required": ["city"],
    }
    drafts = []
    for uri in (
        "https://json-schema.org/draft/2020-12/schema",
        "http://json-schema.org/draft-07/schema#",
    ):
        validator = validator_for({**schema, "$schema": uri})
        validator.check_schema({**schema, "$schema": uri})  # the meta-schema, from the data files
        drafts.append(validator.__name__)
    validator = validator_for(schema)(schema)
    validator.validate({"city": "Paris", "days": 2})
    if validator.is_valid({"days": 0}):
        raise AssertionError("jsonschema accepted an instance its schema refuses")
    try:
        jsonschema.Draft202012Validator.check_schema({"type": "no-such-type"})
    except jsonschema.SchemaError:
        pass
    else:
        raise AssertionError("jsonschema accepted a schema its meta-schema refuses")
    return f"jsonschema {', '.join(drafts)}"


async def _round_trip(streams: Any) -> None:
    """Initialize, list the tools and call ``add`` over an open transport."""
    from mcp.client.session import ClientSession

    read, write = streams[0], streams[1]
    async with ClientSession(read, write) as session:
        await session.initialize()
        tools = [tool.name for tool in (await session.list_tools()).tools]
        if tools != ["add"]:
            raise AssertionError(f"the MCP server lists {tools}, expected ['add']")
        result = await session.call_tool("add", {"a": 2, "b": 3})
        text = " ".join(getattr(part, "text", "") for part in result.content)
        if result.is_error or text.strip() != "5":
            raise AssertionError(f"the MCP tool call answered {text!r}, expected '5'")


def _server_command() -> tuple[str, list[str]]:
    """This program as the stdio server: the frozen executable, or the entry script."""
    if getattr(sys, "frozen", False):
        return sys.executable, [SERVER_FLAG]
    return sys.executable, [str(Path(__file__).with_name("ov_studio_main.py")), SERVER_FLAG]


async def _stdio() -> None:
    from mcp.client.stdio import StdioServerParameters, stdio_client

    command, arguments = _server_command()
    parameters = StdioServerParameters(command=command, args=arguments)
    async with stdio_client(parameters) as streams:
        await _round_trip(streams)


def check_mcp_stdio() -> str:
    """A real stdio round trip with this program started as the server."""
    asyncio.run(asyncio.wait_for(_stdio(), TIMEOUT_S))
    return "MCP stdio"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def check_mcp_http() -> str:
    """A real streamable-HTTP round trip with the server on uvicorn, in a thread."""
    import uvicorn
    from mcp.client.streamable_http import streamable_http_client

    port = _free_port()
    app = _server().streamable_http_app()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="bundle-check-mcp-http", daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + TIMEOUT_S
        while not server.started:  # uvicorn sets it once it listens
            if not thread.is_alive() or time.monotonic() > deadline:
                raise AssertionError("the MCP HTTP server did not start")
            time.sleep(0.05)

        async def talk() -> None:
            async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as streams:
                await _round_trip(streams)

        asyncio.run(asyncio.wait_for(talk(), TIMEOUT_S))
    finally:
        server.should_exit = True
        thread.join(TIMEOUT_S)
    return "MCP streamable HTTP"


def check_opencv_with_pyav() -> str:
    """OpenCV decodes and resizes an image, and reads a video PyAV encoded (one FFmpeg)."""
    import cv2  # first: it must find its (PyAV's) FFmpeg without PyAV loaded before it
    import numpy as np

    image = np.zeros((48, 64, 3), dtype=np.uint8)
    image[:, :32] = (0, 128, 255)
    ok, png = cv2.imencode(".png", image)
    decoded = cv2.imdecode(png, cv2.IMREAD_COLOR) if ok else None
    if decoded is None or not np.array_equal(decoded, image):
        raise AssertionError("OpenCV does not decode the PNG it encoded")
    small = cv2.resize(decoded, (32, 24), interpolation=cv2.INTER_AREA)
    if small.shape != (24, 32, 3):
        raise AssertionError(f"OpenCV resized to {small.shape}")
    import av

    with tempfile.TemporaryDirectory() as folder:
        clip = Path(folder) / "clip.mp4"
        with av.open(str(clip), "w") as container:
            stream = container.add_stream("mpeg4", rate=10)
            stream.width, stream.height, stream.pix_fmt = 64, 48, "yuv420p"
            for _ in range(5):
                frame = av.VideoFrame.from_ndarray(image, format="bgr24")
                container.mux(stream.encode(frame))
            container.mux(stream.encode(None))
        capture = cv2.VideoCapture(str(clip), cv2.CAP_FFMPEG)
        frames = 0
        while True:
            ok, _frame = capture.read()
            if not ok:
                break
            frames += 1
        capture.release()
    if frames != 5:
        raise AssertionError(f"OpenCV read {frames} of the 5 frames PyAV wrote")
    return f"OpenCV {cv2.__version__} with PyAV's FFmpeg"


def check_ocr() -> str:
    """The bundle's OCR models (as the app configures them) read a printed line."""
    import cv2
    import numpy as np

    from app.knowledge.page_reading import packaged_ocr_models
    from pipelines.ocr import OcrConfig, OcrReader

    page = np.full((120, 900, 3), 255, dtype=np.uint8)
    line = "Bundled models read this line"
    cv2.putText(page, line, (20, 75), cv2.FONT_HERSHEY_SIMPLEX, 1.4, (0, 0, 0), 3, cv2.LINE_AA)
    folder = packaged_ocr_models()
    read = OcrReader(OcrConfig(model_folder=folder)).read(page).text
    if "".join(read.split()).lower() != "".join(line.split()).lower():
        raise AssertionError(f"OCR read {read!r} for {line!r} with the models in {folder}")
    return f"OCR ({folder.name if folder else 'rapidocr ONNX'})"


CHECKS: tuple[Callable[[], str], ...] = (
    check_opencv_with_pyav,  # first, before anything has loaded PyAV's FFmpeg
    check_jsonschema,
    check_mcp_stdio,
    check_mcp_http,
    check_ocr,
)


def _innermost(error: BaseException) -> str:
    """The first real error inside anyio's task-group wrappers, as one line."""
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    return f"{type(error).__name__}: {error}".replace("\n", " ")


def run_checks() -> int:
    """Run every check; one line on stdout when all pass, one per problem on stderr."""
    passed, failed = [], []
    for check in CHECKS:
        try:
            passed.append(check())
        except Exception as error:  # noqa: BLE001 - reported in its line; the next check runs
            failed.append(f"bundle check: {check.__name__}: {_innermost(error)}")
    for line in failed:
        sys.stderr.write(line + "\n")
    if failed:
        return 1
    sys.stdout.write(f"bundle check passed: {'; '.join(passed)}\n")
    return 0


def main(argv: list[str]) -> int | None:
    """Handle the two hidden flags; None when ``argv`` is for the app."""
    if argv[:1] == [SERVER_FLAG]:
        return serve_stdio()
    if argv[:1] == [CHECK_FLAG]:
        return run_checks()
    return None
