"""Rewriting an agent's shell call so it runs inside ``bastion run``.

The Claude Code adapter may answer a ``Bash`` call with ``updatedInput`` whose command
is ``sandboxed_command(original, cwd, settings)``: the agent's own shell then starts
bastion, which runs the original command under the sandbox. The line uses the absolute
path of this Python interpreter with ``-I`` (so a ``bastion`` folder in the project
cannot shadow the package), quotes every word for a POSIX shell, and passes
``--no-check`` because the hook has already decided — the sandbox still applies in
full, and its limits come from the settings in ``cwd``.
"""

from __future__ import annotations

import sys

from ..model import Kind, ToolCall
from ..shell.syntax.quoting import join as shell_join

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: Claude Code's own default for a Bash call (2 minutes) when neither the call nor the
#: settings give a timeout; ``bastion run`` alone defaults to 30 s.
DEFAULT_TIMEOUT = 120.0


def _sandbox_section(settings: Any) -> dict[str, Any]:
    if settings is None:
        return {}
    sections = getattr(settings, "sections", None)
    if sections is not None:
        section = sections.get("sandbox")
    elif isinstance(settings, dict):
        section = settings.get("sandbox", settings)
    else:
        section = None
    return section if isinstance(section, dict) else {}


def should_rewrite(call: ToolCall, settings: Any) -> bool:
    """A shell call, the sandbox enabled, and no ``dangerouslyDisableSandbox``."""
    return (
        call.kind is Kind.SHELL
        and _sandbox_section(settings).get("enabled") is True
        and call.input.get("dangerouslyDisableSandbox") is not True
    )


def sandboxed_command(command: str, cwd: str, settings: Any = None, *, timeout: float | None = None) -> str:
    """The shell line that runs ``command`` in ``cwd`` inside bastion's sandbox.

    ``settings``: a ``Policy``, a settings dict or its ``sandbox`` section (only
    ``timeout`` is read here; ``bastion run`` reads the rest itself). ``timeout``
    (seconds, e.g. the Bash call's ``timeout`` / 1000) beats the settings.
    """
    if timeout is None:
        configured = _sandbox_section(settings).get("timeout")
        timeout = float(configured) if isinstance(configured, (int, float)) and configured > 0 else DEFAULT_TIMEOUT
    argv = [
        sys.executable, "-I", "-m", "bastion", "run",
        "--no-check", "--no-prompt", "--cwd", cwd, "--timeout", f"{timeout:g}", "--", command,
    ]
    return shell_join(argv)
