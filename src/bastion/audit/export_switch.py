"""Whether decisions go out as OpenTelemetry records at all, asked on every call.

Kept apart from :mod:`.otel` (the records, the SDK, the pipelines) so that the hook,
which logs every decision, pays for this question only: the export module loads when an
export is switched on.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

__all__ = ["section", "wanted"]


def section(policy: Any) -> Any:
    """The settings' ``audit.export`` value, or None."""
    sections = getattr(policy, "sections", None) or {}
    audit = sections.get("audit") if isinstance(sections, dict) else None
    return audit.get("export") if isinstance(audit, dict) else None


def wanted(policy: Any, env: Mapping[str, str]) -> bool:
    """Cheap: do the settings or the environment mention an export at all?"""
    return section(policy) is not None or "otlp" in env.get("OTEL_LOGS_EXPORTER", "").lower()
