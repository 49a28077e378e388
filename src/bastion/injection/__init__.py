"""Prompt-injection defense: scan tool output, tag untrusted content, carry taint.

    from bastion.injection import scan, is_injection, wrap_untrusted, SYSTEM_PROMPT_RULES

* ``scan(text, source) -> [InjectionFinding]`` and ``is_injection(findings)`` (scanner.py);
* ``wrap_untrusted(text, provenance=…, source_kind=…)``, ``SYSTEM_PROMPT_RULES`` and
  ``format_warning`` (tagging.py);
* ``observe_tool_result(call, text, env)`` for post-tool hooks, and the session taint
  that makes later network sends and code execution ask (observe.py, taint.py).

Names load on first use, so importing the package costs nothing on the hook path.
"""

__all__ = [
    "InjectionFinding",
    "scan",
    "is_injection",
    "score",
    "wrap_untrusted",
    "format_warning",
    "SYSTEM_PROMPT_RULES",
    "observe_tool_result",
    "warning_for",
    "taint_of",
    "record_read",
    "record_injection",
    "TaintLayer",
]

_HOME = {
    "InjectionFinding": "scanner",
    "scan": "scanner",
    "is_injection": "scanner",
    "score": "scanner",
    "wrap_untrusted": "tagging",
    "format_warning": "tagging",
    "SYSTEM_PROMPT_RULES": "tagging",
    "observe_tool_result": "observe",
    "warning_for": "observe",
    "taint_of": "taint",
    "record_read": "taint",
    "record_injection": "taint",
    "TaintLayer": "taint",
}


def __getattr__(name):  # type: ignore[no-untyped-def]
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'bastion.injection' has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(f"{__name__}.{module}"), name)
