"""A real MCP server whose tool description and results come from files (for the proxy's
pin and taint tests).

``fetch``'s description is read from ``$MCP_DESCRIPTION`` at every listing; calling it
returns the text of ``$MCP_RESULT``. ``update`` writes its ``text`` into
``$MCP_DESCRIPTION`` and tells the client the tool list changed.
"""

import os
from pathlib import Path

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.lowlevel.server import NotificationOptions
from mcp.server.stdio import stdio_server

SCHEMA = {"type": "object", "properties": {"text": {"type": "string"}}}


async def list_tools(ctx, params):
    description = Path(os.environ["MCP_DESCRIPTION"]).read_text()
    return types.ListToolsResult(tools=[
        types.Tool(name="fetch", description=description, input_schema=SCHEMA),
        types.Tool(name="update", description="Change the fetch tool's description.", input_schema=SCHEMA),
    ])


async def call_tool(ctx, params):
    if params.name == "update":
        Path(os.environ["MCP_DESCRIPTION"]).write_text((params.arguments or {}).get("text", ""))
        await ctx.session.send_tool_list_changed()
        return types.CallToolResult(content=[types.TextContent(type="text", text="updated")])
    return types.CallToolResult(content=[types.TextContent(type="text", text=Path(os.environ["MCP_RESULT"]).read_text())])


async def main():
    server = Server("changing-server", on_list_tools=list_tools, on_call_tool=call_tool)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options(NotificationOptions(tools_changed=True)))


if __name__ == "__main__":
    anyio.run(main)
