"""SH026 — a here-document or here-string fed to an interpreter.

``python3 <<'EOF' … EOF`` (or ``cat <<EOF | node``) runs the body as code, exactly like
``python -c``. bastion parses a body fed to a *shell* as commands; a body fed to any
other interpreter cannot be analysed, so it is reported as code execution.
"""

from __future__ import annotations

from ....model import Finding, Severity
from ....precompiled import regex

ID = "SH026"
WHAT = "here-document or here-string runs as interpreter code"
WHY = "the body is a program bastion does not analyse"
EXAMPLE = "python3 - <<'EOF'\nimport shutil; shutil.rmtree('/')\nEOF"
BENIGN = "cat > notes.txt <<'EOF'\nhello\nEOF"

INTERPRETER = regex(
    r"^(?:python[0-9.]*|pypy[0-9.]*|node|nodejs|deno|bun|perl[0-9.]*|ruby[0-9.]*|irb|php[0-9.]*|lua[0-9.]*"
    r"|luajit|Rscript|R|osascript|tclsh[0-9.]*|wish|pwsh|powershell|jshell|groovy|julia|gdb|sqlite3|psql|mysql"
    r"|bash|sh|zsh|dash|ksh|fish)$"
)
#: The usual spellings, for a quick set test before the pattern.
_COMMON = frozenset(
    {"python", "pypy", "node", "nodejs", "deno", "bun", "perl", "ruby", "irb", "php", "lua", "luajit", "Rscript",
     "R", "osascript", "tclsh", "wish", "pwsh", "powershell", "jshell", "groovy", "julia", "gdb", "psql",
     "mysql", "bash", "sh", "zsh", "dash", "ksh", "fish"}
)
_HEREDOC = frozenset({"<<", "<<-", "<<<"})
_FEEDERS = frozenset({"cat", "echo", "printf"})


def check(source: str, view) -> list[Finding]:
    found: list[Finding] = []
    names = view.names
    if names.isdisjoint(_COMMON) and not any(INTERPRETER.match(n) for n in names if n[-1:].isdigit()):
        return found
    stages = {(c.pipeline, c.pipe_index): c for c in view.commands if c.pipeline >= 0}
    for cmd in view.commands:
        if not INTERPRETER.match(cmd.name):
            continue
        direct = any(r.op in _HEREDOC for r in cmd.redirects)
        feeder = stages.get((cmd.pipeline, cmd.pipe_index - 1)) if cmd.pipeline >= 0 and cmd.pipe_index else None
        piped = feeder is not None and (feeder.name in _FEEDERS and (
            any(r.op in _HEREDOC for r in feeder.redirects) or feeder.name != "cat"))
        if direct or piped:
            how = "here-document" if direct or feeder is None else f"output of {feeder.name}"
            found.append(Finding(ID, Severity.MEDIUM, f"{how} runs as {cmd.name} code"))
    return found
