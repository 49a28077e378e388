"""Files: the workspace boundary and the protected, credential, sensitive and removal-target
path lists. Standard library only, nothing compiled at import; see ``check.check_access``."""

from .check import OPS, PathVerdict, check_access, suggest_edit_scope
from .protected import DEFAULT, ProtectionConfig
from .workspace import Workspace, is_within, resolve_path

__all__ = [
    "DEFAULT",
    "OPS",
    "PathVerdict",
    "ProtectionConfig",
    "Workspace",
    "check_access",
    "is_within",
    "resolve_path",
    "suggest_edit_scope",
]
