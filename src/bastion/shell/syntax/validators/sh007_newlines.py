"""SH007 — a newline that starts another command.

A command of several lines is a list of commands: the parser reads each line as bash
does and every command on it is judged by what it does (a comment line is a comment),
so ``ls\\nrm -rf ~`` is denied for its second line as ``ls; rm -rf ~`` would be. A
second line hides nothing from bastion; the finding is a note (low) that the prompt
shows beside a question another finding asks. Line continuations (``\\`` at the end of
a line) and newlines inside quotes are not separators and are not reported here.
"""

from __future__ import annotations

from ....model import Finding, Severity

ID = "SH007"
WHAT = "newline separates commands"
WHY = ("a second line can hide a second command from anyone who reads only the first; bastion judges every "
       "line, so it is a note, not a question")
EXAMPLE = "ls\nrm -rf ~/project"
BENIGN = "ls \\\n  -la"


def check(source: str, view) -> list[Finding]:
    root = view.root
    if root is None:
        return []
    previous_end = -1
    lines: list[int] = []
    first = ""
    for child in root.named_children:
        row = child.start_point[0]
        if child.type != "comment" and previous_end >= 0 and row > previous_end:
            lines.append(row + 1)
            if not first:
                first = view.text(child).split("\n", 1)[0].strip()[:60]
        previous_end = child.end_point[0]
    if not lines:
        return []
    more = f" (and {len(lines) - 1} more)" if len(lines) > 1 else ""
    handed = _file_handed_on(view.commands)
    if handed:
        return [Finding(ID, Severity.MEDIUM, f"a later line hands {handed!r}, which an earlier line wrote, to "
                                             f"another program (a script of {len(lines) + 1} lines)")]
    return [Finding(ID, Severity.LOW, f"line {lines[0]} starts another command: {first!r}{more}")]


def _file_handed_on(commands) -> str:
    """A file one command of the script writes (``> /tmp/t``) and a later one is given
    as an option's value (``fastfetch -c /tmp/t``): a small script whose second part reads
    what its first part planted (a config that runs commands, a module list) is a
    question, as it was before each line was judged on its own."""
    written: set[str] = set()
    for cmd in commands:
        args = cmd.argv[1:]
        for index, arg in enumerate(args):
            # as an option's value (``-c FILE``, ``--config=FILE``): a file a program takes
            # as settings; a program run as a file (``python f.py``) is judged as one
            if arg.startswith("-") and "=" in arg:
                value = arg.split("=", 1)[1]
            elif index and args[index - 1].startswith("-") and args[index - 1] != "-":
                value = arg
            else:
                continue
            if value in written:
                return value
        for redirect in cmd.redirects:
            if redirect.writes and redirect.op != ">&" and not redirect.target.startswith("/dev/"):
                written.add(redirect.target)
    return ""
