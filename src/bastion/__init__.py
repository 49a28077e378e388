"""bastion: allow, ask or deny for every tool call an AI agent makes.

The public face is the names below; every other module is internal and may change::

    from bastion import Guard, ToolCall
    guard = Guard.from_settings("/path/to/project")
    print(guard.check(ToolCall("Bash", {"command": "rm -rf ~"}, cwd="/path/to/project")).verdict)
"""

__all__ = ["Decision", "Finding", "Guard", "Mode", "ToolCall", "Verdict"]
__version__ = "0.1.0"

TYPE_CHECKING = False  # no `typing` import: `bastion hook` starts from this module
if TYPE_CHECKING:
    from .engine import Guard
    from .model import Decision, Finding, Mode, ToolCall, Verdict


def __getattr__(name: str) -> object:
    """The public names, loaded on first use, so that ``bastion hook`` starts without them."""
    if name == "Guard":
        from .engine import Guard

        return Guard
    if name in __all__:
        from . import model

        return getattr(model, name)
    raise AttributeError(f"module 'bastion' has no attribute {name!r}")
