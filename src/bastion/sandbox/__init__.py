"""Run approved shell commands under OS limits (spec 000 §05, spec 002 §12.9).

``Sandbox(...).run(command, cwd=...)`` → ``RunResult``. Backends: bubblewrap when it is
installed, else Landlock with user, mount, PID and network namespaces. See the
README's Sandbox section for what is enforced where, and ``bastion doctor``.
"""

from .runner import EXIT_SETUP, EXIT_TIMEOUT, RunResult, Sandbox, SandboxError, SandboxUnavailable

__all__ = ["Sandbox", "RunResult", "SandboxError", "SandboxUnavailable", "EXIT_TIMEOUT", "EXIT_SETUP"]
