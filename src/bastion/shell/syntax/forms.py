"""The strings a permission rule is matched against, for each simple command.

Deny rules see every spelling (as written, wrappers peeled, variables stripped) so that
``sudo rm -rf x`` or ``FOO=1 rm -rf x`` cannot slip past ``Bash(rm -rf:*)``. Allow rules
see one spelling, and only when nothing around the command changes what runs: safe
variables (``NODE_ENV=test``) and harmless wrappers (``timeout 60``) are stripped, while
a dangerous variable (``LD_PRELOAD=…``) or a privilege wrapper (``sudo``) keeps every
allow rule from matching (spec 002 §12.12).
"""

from __future__ import annotations

from .quoting import join as shell_join
from .script import SimpleCommand

#: Wrappers that run their command unchanged in every way a rule cares about.
HARMLESS_WRAPPERS = frozenset({"timeout", "time", "nice", "nohup", "stdbuf", "command", "builtin", "env"})


def _join(argv: tuple[str, ...]) -> str:
    return shell_join(argv)


def deny_forms(cmd: SimpleCommand) -> tuple[str, ...]:
    """Every spelling of the command a deny or ask rule should see."""
    forms = []
    if cmd.argv:
        forms.append(_join(cmd.argv))
        forms.append(_join((cmd.name, *cmd.args)))
    if cmd.text:
        forms.append(" ".join(cmd.text.split()))
    seen: dict[str, None] = {}
    for form in forms:
        seen.setdefault(form, None)
    return tuple(seen)


def allow_form(cmd: SimpleCommand) -> str | None:
    """The one spelling an allow rule may match, or None when no allow rule may cover
    the command (dangerous variable, privilege or shell wrapper)."""
    from .env import SAFE_ENV_VARS, is_dangerous_env

    if not cmd.argv:
        return None
    for name, _value in cmd.assignments:
        if is_dangerous_env(name) or (name not in SAFE_ENV_VARS and not name.startswith("LC_")):
            return None
    if any(wrapper not in HARMLESS_WRAPPERS for wrapper in cmd.wrappers):
        return None
    return _join(cmd.argv)
