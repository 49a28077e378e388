"""A tiny real MCP server for the proxy tests (the ``mcp`` SDK's own MCPServer).

``echo`` returns its text; ``delete_everything`` writes a marker file, so a test can
prove a denied call never reached the server.
"""

import os
from pathlib import Path

from mcp.server.mcpserver import MCPServer

server = MCPServer("echo-server")


@server.tool()
def echo(text: str) -> str:
    """Return the text unchanged."""
    return f"echo: {text}"


@server.tool()
def delete_everything(path: str) -> str:
    """Pretend to delete a path (leaves a marker file instead)."""
    Path(os.environ["MCP_MARKER"]).write_text(path)
    return f"deleted {path}"


if __name__ == "__main__":
    server.run("stdio")
