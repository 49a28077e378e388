"""SH020 — zsh builtins that load modules or do raw I/O (spec 002 §12.6.5).

``zmodload zsh/net/tcp`` then ``ztcp`` opens network connections from the shell itself;
``sysopen``/``syswrite`` write files without any command a checker knows; ``emulate sh
-c`` runs a string; ``zpty`` hides a subprocess; ``zf_rm`` and friends are ``rm`` in
disguise.
"""

from __future__ import annotations

from ....model import Finding, Severity

ID = "SH020"
WHAT = "dangerous zsh builtin (zmodload, emulate, sysopen, sysread, syswrite, ztcp, zsocket, zpty, mapfile, zf_*)"
WHY = "these builtins reach the network, the file system or other code without a visible command"
EXAMPLE = "zmodload zsh/net/tcp"
BENIGN = "zip -r out.zip src"

ZSH_DANGEROUS = frozenset(
    {"zmodload", "emulate", "sysopen", "sysread", "syswrite", "sysseek", "ztcp", "zsocket", "zpty",
     "mapfile", "zselect", "zsystem", "zstat"}
)
_MEDIUM = frozenset({"mapfile"})  # also bash's harmless readarray


def check(source: str, view) -> list[Finding]:
    found: list[Finding] = []
    names = view.names
    if names.isdisjoint(ZSH_DANGEROUS) and ("zf_" not in source or not any(n.startswith("zf_") for n in names)):
        return found
    for cmd in view.commands:
        name = cmd.name
        if name in ZSH_DANGEROUS or name.startswith("zf_"):
            severity = Severity.MEDIUM if name in _MEDIUM else Severity.HIGH
            found.append(Finding(ID, severity, f"zsh builtin {name!r} can reach files, sockets or code directly"))
    return found
