"""bastion: allow, ask or deny for every tool call an AI agent makes."""

__all__ = ["Decision", "Finding", "Kind", "Mode", "Source", "Tier", "ToolCall", "Verdict"]
__version__ = "0.1.0"

TYPE_CHECKING = False  # no `typing` import: `bastion hook` starts from this module
if TYPE_CHECKING:
    from .model import Decision, Finding, Kind, Mode, Source, Tier, ToolCall, Verdict


def __getattr__(name):  # type: ignore[no-untyped-def]
    """The core types, loaded on first use, so that ``bastion hook`` starts without them."""
    if name in __all__:
        from . import model

        return getattr(model, name)
    raise AttributeError(f"module 'bastion' has no attribute {name!r}")
