"""bastion: allow, ask or deny for every tool call an AI agent makes."""

from .model import Decision, Finding, Kind, Mode, Source, Tier, ToolCall, Verdict

__all__ = ["Decision", "Finding", "Kind", "Mode", "Source", "Tier", "ToolCall", "Verdict"]
__version__ = "0.1.0"
