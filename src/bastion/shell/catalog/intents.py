"""Risk factors and finding codes: what a shell command *intends*, and how bad that is.

Spec 000's BashSandbox names six risk factors (``network_exfil``, ``credential_access``,
``system_modification``, ``pipe_injection``, ``env_access``, ``recursive_delete``) and
rates a command ``safe`` / ``suspicious`` / ``dangerous``. bastion keeps those names and
adds the intents its catalog can tell apart (deleting files, changing permissions,
network access, process control, privilege, code execution, persistence, obfuscation,
data loss, publishing).

Every fact the analyser reports has a code in :data:`CODES`. A code fixes the factor
kind, the severity and whether it is a **hard block** (layer 2, deny in every mode) or
an **ask** (layer 6). Severities map to spec 000's verdicts like this:

==========  ===========================  =======================================
severity    spec 000                     bastion
==========  ===========================  =======================================
low         (no factor)                  recorded only; the command may still be
                                         known-safe (``git clone`` reaches the net)
medium      suspicious                   a finding: layer 6 asks
high        suspicious (strong warning)  a finding: layer 6 asks, usually destructive
critical    dangerous → blocked          a hard block: layer 2 denies
==========  ===========================  =======================================

Codes: ``HB0xx`` are hard blocks, ``CAT0xx`` are catalog/semantic findings.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...model import Finding, Severity

__all__ = ["RiskFactor", "Code", "CODES", "KINDS", "safety", "SAFE", "SUSPICIOUS", "DANGEROUS"]

SAFE, SUSPICIOUS, DANGEROUS = "safe", "suspicious", "dangerous"

#: Factor kinds: spec 000's six first, then bastion's additions.
KINDS = frozenset(
    {
        "network_exfil",
        "credential_access",
        "system_modification",
        "pipe_injection",
        "env_access",
        "recursive_delete",
        "delete_files",
        "modify_permissions",
        "network_access",
        "process_management",
        "privilege",
        "code_execution",
        "persistence",
        "obfuscation",
        "data_loss",
        "publishing",
        "file_write",
    }
)


@dataclass(frozen=True)
class RiskFactor:
    """One risk the analyser saw in one command (spec 000's ``RiskFactor``)."""

    kind: str
    severity: Severity
    message: str
    command: str


@dataclass(frozen=True)
class Code:
    """What a finding code means: its factor kind, severity, and consequences.

    ``destructive`` marks findings after which no session or "always" grant may be
    offered (spec 000: destructive actions always prompt).
    """

    code: str
    kind: str
    severity: Severity
    title: str
    destructive: bool = False

    @property
    def hard(self) -> bool:
        return self.severity is Severity.CRITICAL


_C, _H, _M, _L = Severity.CRITICAL, Severity.HIGH, Severity.MEDIUM, Severity.LOW


def _codes(*rows: tuple) -> dict[str, Code]:
    table: dict[str, Code] = {}
    for row in rows:
        code = Code(*row)
        assert code.code not in table and code.kind in KINDS, code
        table[code.code] = code
    return table


CODES: dict[str, Code] = _codes(
    # --- hard blocks (layer 2: deny, immune) -----------------------------------------
    ("HB001", "recursive_delete", _C, "recursive delete of the root, a home, a system directory or the workspace root", True),
    ("HB002", "system_modification", _C, "formats a filesystem on a device", True),
    ("HB003", "system_modification", _C, "raw write or wipe of a block device", True),
    ("HB004", "process_management", _C, "fork bomb", True),
    ("HB005", "pipe_injection", _C, "downloaded code is executed (piped to a shell, run after download, or written where it runs automatically)", True),
    ("HB006", "network_exfil", _C, "reverse shell (a shell wired to a network connection)", True),
    ("HB007", "network_exfil", _C, "bind shell (a shell served on a listening socket)", True),
    ("HB008", "network_exfil", _C, "secret exfiltration (a secret or the environment is read and sent over the network)", True),
    ("HB009", "credential_access", _C, "dumps a high-value secret (private key, cloud or login credentials, shadow file)", True),
    ("HB010", "obfuscation", _C, "decoded or obfuscated text is executed by a shell", True),
    ("HB011", "persistence", _C, "writes a backdoor target (authorized_keys, sudoers, ld.so.preload, passwd/shadow, PAM)", True),
    ("HB012", "modify_permissions", _C, "recursive permission or owner change of the root, a home or a system directory", True),
    ("HB013", "process_management", _C, "kills every process (or init)", True),
    ("HB014", "system_modification", _C, "crashes the kernel (sysrq trigger)", True),
    ("HB015", "privilege", _C, "root shell obtained through another program (sudo shell escape)", True),
    ("HB016", "system_modification", _C, "switches the guard off", True),
    ("HB017", "privilege", _C, "grants root: a setuid or capability-bearing shell or interpreter", True),
    # --- asks (layer 6) --------------------------------------------------------------
    ("CAT001", "network_access", _M, "network access"),
    ("CAT002", "network_exfil", _H, "sends local data over the network"),
    ("CAT003", "credential_access", _M, "reads a secret or credential file"),
    ("CAT004", "env_access", _M, "reads the environment or secret variables"),
    ("CAT005", "privilege", _M, "runs with elevated privileges"),
    ("CAT006", "code_execution", _M, "executes code given inline or built at run time"),
    ("CAT007", "pipe_injection", _H, "pipes data into a shell or interpreter"),
    ("CAT008", "persistence", _H, "writes a file that runs automatically later (rc file, cron, hook, service)", True),
    ("CAT009", "system_modification", _M, "changes system configuration or services"),
    ("CAT010", "delete_files", _M, "deletes files"),
    ("CAT011", "recursive_delete", _H, "recursive delete outside the workspace", True),
    ("CAT012", "modify_permissions", _M, "changes permissions or ownership"),
    ("CAT013", "process_management", _M, "signals or kills processes"),
    ("CAT014", "obfuscation", _H, "obfuscated command"),
    ("CAT015", "data_loss", _H, "discards version-control history or uncommitted work", True),
    ("CAT016", "data_loss", _H, "deletes or destroys remote, cloud, container or database resources", True),
    ("CAT017", "publishing", _H, "publishes a package or release", True),
    ("CAT018", "system_modification", _H, "changes the machine's power state", True),
    ("CAT019", "file_write", _M, "writes or deletes outside the workspace"),
    ("CAT020", "code_execution", _M, "option that runs commands or writes files on an otherwise read-only command"),
    ("CAT021", "code_execution", _H, "environment variable that makes the command load or run other code"),
    ("CAT022", "code_execution", _H, "git configuration that executes commands"),
    ("CAT023", "system_modification", _H, "partitions or formats disks", True),
    ("CAT024", "data_loss", _H, "erases shell history or logs (anti-forensics)", True),
    ("CAT025", "system_modification", _H, "changes user accounts or passwords", True),
    ("CAT026", "code_execution", _M, "installs packages (third-party code runs)"),
    ("CAT027", "code_execution", _M, "interactive program with shell escapes (pager, editor, REPL)"),
    ("CAT028", "system_modification", _H, "disables a security control (firewall, SELinux, AppArmor)", True),
    ("CAT029", "network_access", _M, "opens a listening socket or tunnel"),
    ("CAT030", "data_loss", _M, "truncates or overwrites a file's contents"),
    ("CAT031", "network_access", _L, "fetches from the network as part of a routine command"),
    ("CAT032", "code_execution", _L, "runs a project script or build (routine)"),
    ("CAT033", "file_write", _L, "writes files inside the workspace"),
    ("CAT034", "recursive_delete", _H, "recursive delete whose targets are not known statically", True),
    ("CAT035", "data_loss", _H, "deletes local data irreversibly", True),
    ("CAT036", "data_loss", _M, "modifies database contents"),
    ("CAT037", "data_loss", _M, "deletes a branch, tag or remote (recoverable)"),
    ("CAT038", "data_loss", _M, "rewrites local history (recoverable from the reflog)"),
    ("CAT039", "file_write", _M, "applies a patch (edits files, as the Edit tool does)"),
)


def finding(code: str, detail: str) -> Finding:
    """The Finding for ``code``; ``detail`` names the command or the path involved."""
    info = CODES[code]
    return Finding(code, info.severity, f"{info.title}: {detail}" if detail else info.title)


def factor(code: str, detail: str, command: str) -> RiskFactor:
    info = CODES[code]
    return RiskFactor(info.kind, info.severity, f"{info.title}: {detail}" if detail else info.title, command)


_RANK = {Severity.LOW: 0, Severity.MEDIUM: 1, Severity.HIGH: 2, Severity.CRITICAL: 3}


def safety(factors: list[RiskFactor] | tuple[RiskFactor, ...]) -> str:
    """Spec 000's overall rating: any critical factor is ``dangerous`` (blocked), any
    medium or high one ``suspicious`` (asked), otherwise ``safe``."""
    worst = max((_RANK[f.severity] for f in factors), default=0)
    if worst >= 3:
        return DANGEROUS
    if worst >= 1:
        return SUSPICIOUS
    return SAFE


def at_least(severity: Severity, floor: Severity) -> bool:
    return _RANK[severity] >= _RANK[floor]
