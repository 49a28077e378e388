"""Adapters: bastion inside the agents people use.

* ``claude_code``, ``codex``, ``gemini`` — each client's hook protocol, a
  ``hook.protocol.ClientAdapter`` (the transport itself is the ``bastion.hook`` package);
* ``install`` — ``bastion install|uninstall CLIENT``: the hook entry in the client's settings;
* ``agent_sdk`` — ``can_use_tool`` and a ``PreToolUse`` hook for the Claude Agent SDK;
* ``mcp_proxy`` — ``bastion mcp-proxy``: an MCP server that guards another one;
* ``wrap`` — ``guarded``: any Python function used as an agent tool.

Nothing is imported here, so ``bastion hook`` pays only for the client it serves.
"""
