"""Run approved shell commands under OS limits (spec 000 §05, spec 002 §12.9).

``Sandbox(...).run(command, cwd=...)`` → ``RunResult``. Backends: bubblewrap when it is
installed, else Landlock with user, mount, PID and network namespaces. See the
README's Sandbox section for what is enforced where, and ``bastion doctor``.

The names below are imported on first use: the engine's post-step
(``sandbox.policy``) must not pull the runner into every hook process.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Sandbox", "RunResult", "SandboxError", "SandboxUnavailable", "EXIT_TIMEOUT", "EXIT_SETUP"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import runner

        return getattr(runner, name)
    raise AttributeError(f"module 'bastion.sandbox' has no attribute {name!r}")
