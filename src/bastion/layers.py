"""The built-in layers in DESIGN.md's order. The engine composes them; a library user
may insert their own with ``Guard.insert_layer``.

| stage | layers |
|---|---|
| 0 | validate |
| 1 | deny_rules |
| 2 | tamper, hard_blocks, removal_targets, runs_later |
| 3 | protected_paths, taint, ask_rules, too_complex, known_attacks, plugins_restrict |
| 4 | mode |
| 5 | allow_rules, plugins_allow |
| 6 | shell_analysis, path_boundary |
| 7 | defaults |
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .core.context import Layer


def default_layers() -> list[Layer]:
    from .files.layers import PathBoundary, ProtectedPaths, RemovalTargets
    from .files.runs_later import RunsLater
    from .injection.taint import TaintLayer
    from .policy.defaults import Defaults
    from .policy.layers import AllowRules, AskRules, DenyRules, ModeLayer, PluginGuards
    from .shell.layers import HardBlocks, KnownAttacks, ShellAnalysis, TooComplex
    from .tamper import TamperGuard
    from .validate import ValidateInput

    return [
        ValidateInput(),
        DenyRules(),
        TamperGuard(),  # before hard_blocks: its reason for HB016 says how to do it on purpose
        HardBlocks(),
        RemovalTargets(),
        RunsLater(),
        ProtectedPaths(),
        TaintLayer(),
        AskRules(),
        TooComplex(),
        KnownAttacks(),
        PluginGuards("restrict"),
        ModeLayer(),
        AllowRules(),
        PluginGuards("allow"),
        ShellAnalysis(),
        PathBoundary(),
        Defaults(),
    ]
