"""The facts a PreToolUse decision derived, kept for the same call's PostToolUse.

The warm decision server answers both hooks of one tool call. The post-tool scan needs
the command's shell analysis (which files it read, whether it printed the environment);
the decision already computed it, so the server hands it over instead of parsing and
analysing the command a second time. In a one-shot hook process nothing is kept
between calls and the scan analyses the command itself, as before.

Only shell calls of a session are kept (the scan records nothing without a session),
and only those that may run (a denied call has no PostToolUse). A kept entry is used
only for the very same call: same session, tool, input, folder and home.
"""

from __future__ import annotations

from _thread import allocate_lock  # what threading.Lock is, without importing threading

from ..model import Decision, Kind, ToolCall, Verdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections import OrderedDict
    from typing import Any
else:
    from _collections import OrderedDict  # collections' own, without importing collections

#: Calls remembered at most; the oldest are forgotten first (a tool call's PostToolUse
#: follows its PreToolUse within seconds, a few calls in flight per session at most).
MAX_KEPT = 256

_kept: OrderedDict[tuple[str, str, str, str], Decision] = OrderedDict()
_lock = allocate_lock()


def _key(call: ToolCall, home: str) -> tuple[str, str, str, str]:
    return (call.session_id or "", call.cwd, call.command or "", home)


def remember(call: ToolCall, decision: Decision, home: str) -> None:
    """Keep a decided shell call's facts for its PostToolUse."""
    if call.kind is not Kind.SHELL or not call.session_id or decision.verdict is Verdict.DENY:
        return
    if decision.facts_about(call) is None:
        return
    with _lock:
        _kept[_key(call, home)] = decision
        _kept.move_to_end(_key(call, home))
        while len(_kept) > MAX_KEPT:
            _kept.popitem(last=False)


def recall(call: ToolCall, home: str) -> Any:
    """The facts its PreToolUse derived for this very call (taken: used once), or None."""
    with _lock:
        decision = _kept.pop(_key(call, home), None)
    if decision is None:
        return None
    facts = decision.facts_about(call)
    return facts if facts is not None and getattr(facts, "home", None) == home else None
