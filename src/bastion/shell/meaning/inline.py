"""Programs hidden in arguments: sed scripts, awk programs, jq filters, interpreter
one-liners, SQL statements, and fork bombs in raw source.

These are the places where a "read-only" command or an interpreter is told to do more:
``sed 'e id'``, ``awk 'BEGIN{system("sh")}'``, ``python -c 'import pty; …'``,
``psql -c 'DROP TABLE users'``. The checks are lexical and deliberately conservative:
when the sed scanner cannot follow a script, it says so and the command is not treated
as read-only.

All patterns are bastion's own and fixed, so the standard ``re`` module's engine is used (RE2
is for user-supplied patterns); each is compiled once, on first use, through the precompiled
cache (:func:`bastion.precompiled.pattern`: a kept one is built without importing ``re``).
"""

from __future__ import annotations

from ...precompiled import DOTALL, IGNORECASE, pattern as compiled
from ...std_lite import cache

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re

__all__ = [
    "heredoc_bodies",
    "sed_commands",
    "awk_risks",
    "jq_risks",
    "CodeIntent",
    "code_intents",
    "sql_risks",
    "fork_bomb",
]

# --------------------------------------------------------------------------- sed


def _skip_regex(s: str, i: int, delim: str) -> int | None:
    """Index just past the closing ``delim`` of a regex starting at ``i``; None if open."""
    n = len(s)
    in_bracket = False
    while i < n:
        c = s[i]
        if c == "\\":
            i += 2
            continue
        if c == "[" and delim != "[":
            in_bracket = True
        elif c == "]" and in_bracket:
            in_bracket = False
        elif c == delim and not in_bracket:
            return i + 1
        elif c == "\n" and delim != "\n":
            return None
        i += 1
    return None


def _skip_part(s: str, i: int, delim: str) -> int | None:
    """Like ``_skip_regex`` but without bracket expressions (replacement text)."""
    n = len(s)
    while i < n:
        c = s[i]
        if c == "\\":
            i += 2
            continue
        if c == delim:
            return i + 1
        i += 1
    return None


def _skip_address(s: str, i: int) -> int | None:
    n = len(s)
    if i >= n:
        return i
    c = s[i]
    if c.isdigit():
        while i < n and (s[i].isdigit() or s[i] == "~"):
            i += 1
        return i
    if c == "$":
        return i + 1
    if c == "/":
        end = _skip_regex(s, i + 1, "/")
        if end is None:
            return None
        while end < n and s[end] in "IM":
            end += 1
        return end
    if c == "\\" and i + 1 < n:
        end = _skip_regex(s, i + 2, s[i + 1])
        if end is None:
            return None
        while end < n and s[end] in "IM":
            end += 1
        return end
    if c in "+~" and i + 1 < n and s[i + 1].isdigit():
        i += 1
        while i < n and s[i].isdigit():
            i += 1
        return i
    return i


_SIMPLE_SED = frozenset("dDgGhHlLnNpPqQxz=F")


def _sed_literal(text: str) -> str | None:
    """A replacement as the text it puts in the pattern space (``\\/`` is ``/``,
    ``\\n`` a newline), or None when it copies matched text (``&``, ``\\1``)."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "&":
            return None
        if c == "\\" and i + 1 < n:
            nxt = text[i + 1]
            if nxt.isdigit():
                return None
            out.append("\n" if nxt == "n" else "\t" if nxt == "t" else nxt)
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def sed_commands(script: str, shell: list[str] | None = None) -> set[str] | None:
    """The command letters a sed script uses (``e`` and ``w`` also when they are flags of
    ``s``), or None when the script cannot be followed (treat as unsafe).

    ``shell`` collects the shell text ``e`` runs when it is written out: the command of
    ``e COMMAND``, and the replacement of ``s/RE/REPLACEMENT/e``, which becomes the
    pattern space that ``e`` runs (for the whole line the substitution makes; a
    replacement that copies matched text is not collected)."""
    cmds: set[str] = set()
    s, i, n = script, 0, len(script)
    while i < n:
        c = s[i]
        if c in " \t\n;":
            i += 1
            continue
        if c == "#":
            while i < n and s[i] != "\n":
                i += 1
            continue
        j = _skip_address(s, i)
        if j is None:
            return None
        if j != i:
            i = j
            while i < n and s[i] in " \t":
                i += 1
            if i < n and s[i] == ",":
                i += 1
                while i < n and s[i] in " \t":
                    i += 1
                j = _skip_address(s, i)
                if j is None:
                    return None
                i = j
        while i < n and s[i] in " \t!":
            i += 1
        if i >= n:
            return None if j != i else cmds
        c = s[i]
        i += 1
        if c in "{}":
            continue
        if c in "aic":
            cmds.add(c)
            while i < n and s[i] != "\n":
                if s[i] == "\\" and i + 1 < n:
                    i += 1
                i += 1
            continue
        if c in ":btT":
            while i < n and s[i] not in ";\n":
                i += 1
            continue
        if c in "rRwWe":
            cmds.add(c)
            start = i
            while i < n and s[i] != "\n":
                i += 1
            if c == "e" and shell is not None and s[start:i].strip():
                shell.append(s[start:i].strip())
            continue
        if c == "v":
            while i < n and s[i] not in ";\n":
                i += 1
            continue
        if c in "sy":
            if i >= n or s[i] in "\n\\":
                return None
            delim = s[i]
            end = (_skip_regex if c == "s" else _skip_part)(s, i + 1, delim)
            if end is None:
                return None
            middle = end
            end = _skip_part(s, end, delim)
            if end is None:
                return None
            i = end
            cmds.add(c)
            if c == "s":
                while i < n and s[i] not in ";\n}":
                    f = s[i]
                    if f == "w":
                        cmds.add("w")
                        while i < n and s[i] != "\n":
                            i += 1
                        break
                    if f == "e":
                        cmds.add("e")
                        replacement = _sed_literal(s[middle:end - 1])
                        if shell is not None and replacement and replacement.strip():
                            shell.append(replacement)
                    elif f not in "gpiImM0123456789 \t":
                        return None
                    i += 1
            continue
        if c in _SIMPLE_SED:
            cmds.add(c)
            while i < n and (s[i].isdigit() or s[i] in " \t"):
                i += 1
            continue
        return None
    return cmds


# --------------------------------------------------------------------------- awk, jq


@cache
def _awk_patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return (
        ("exec", compiled(r"\bsystem\s*\(")),
        ("exec", compiled(r"\|\s*getline")),
        ("exec", compiled(r"\|&")),
        ("exec", compiled(r"\bprintf?\b[^;{}]*\|\s*[\"\w(]")),
        ("write", compiled(r"\bprintf?\b[^;{}]*>")),
        ("net", compiled(r"/inet[46]?/")),
        ("exec", compiled(r"@load\b|\bextension\s*\(")),
        ("env", compiled(r"\bENVIRON\b")),
    )


def awk_risks(program: str) -> set[str]:
    """``exec`` (runs commands), ``write`` (print redirection), ``net`` (/inet sockets),
    ``env`` (reads ENVIRON)."""
    return {kind for kind, pattern in _awk_patterns() if pattern.search(program)}


@cache
def _jq_patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return (
        ("env", compiled(r"(?<![\w.$])env\b|\$ENV\b")),
        ("exec", compiled(r"\bsystem\b")),
        ("read", compiled(r"\binput_filename\b|\$__loc__")),
    )


def jq_risks(filter_text: str) -> set[str]:
    return {kind for kind, pattern in _jq_patterns() if pattern.search(filter_text)}


# --------------------------------------------------------------------------- code


class CodeIntent:
    """What an interpreter one-liner (or a script body) does, lexically (a plain class:
    cheaper to define at import than a dataclass, and every shell decision loads this
    module; :func:`code_intents` fills one in)."""

    __slots__ = ("reverse_shell", "bind_shell", "fork_bomb", "download_exec", "network", "env_dump", "shell_exec",
                 "commands", "paths", "recursive_deletes", "deletes", "library_load")

    def __init__(self) -> None:
        self.reverse_shell = False
        self.bind_shell = False
        self.fork_bomb = False
        self.download_exec = False
        self.network = False
        self.env_dump = False
        self.shell_exec = False
        #: Literal shell command strings handed to system()/exec()/backticks.
        self.commands: list[str] = []
        #: Literal path strings the code mentions (for secret checks).
        self.paths: list[str] = []
        #: Literal paths given to recursive-delete functions (rmtree, rm_rf …).
        self.recursive_deletes: list[str] = []
        #: Literal paths given to single-file delete functions (remove, unlink …).
        self.deletes: list[str] = []
        self.library_load = False

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CodeIntent) and all(getattr(self, n) == getattr(other, n) for n in self.__slots__)

    def __repr__(self) -> str:
        return "CodeIntent(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__) + ")"


@cache
def _code_patterns() -> dict[str, re.Pattern[str]]:
    c = compiled
    return {
        "socket": c(
            r"socket|fsockopen|TCPSocket|IO::Socket|net\.connect|new\s+net\.Socket|createConnection|/dev/tcp/|"
            r"java\.net\.Socket|new\s+Socket\s*\(|\bSocket\.new|TCPClient|stream_socket_client|ServerSocket|"
            r"createServer|TCPServer|/inet/tcp|nc\s+-|require\s*\(\s*[\"'](?:net|dgram|tls)[\"']\s*\)",
            IGNORECASE,
        ),
        "shell": c(
            r"/bin/(?:ba|z|da|k|c|tc|a)?sh\b|\bcmd(?:\.exe)?\b|pty\.spawn|\bdup2\b|child_process|ProcessBuilder|"
            r"proc_open|\bexec\s*\(\s*[\"'](?:/bin/)?(?:ba)?sh|spawn\s*\(\s*[\"'](?:/bin/)?(?:ba)?sh|"
            r"Runtime\.getRuntime|\bsh\s+-i\b|powershell|\bio\.popen\b|\bIO\.popen\b|\bexec\s*\{|\bsystem\s*\(|"
            r"subprocess\.(?:call|Popen|run)\s*\(\s*\[?\s*[\"'](?:/bin/)?(?:ba)?sh"
        ),
        "listen": c(r"\.bind\s*\(|\blisten\s*\(|createServer|TCPServer|ServerSocket|LocalPort|Listen\s*=>|\bbind\s*\(|accept\s*\(|-l\s", IGNORECASE),
        "fork": c(
            r"fork\s+while\s+fork|while\s*(?:\(\s*)?(?:True|1|true)\s*\)?\s*:?\s*\{?[^\n]*?\bfork\s*\(|"
            r"for\s*\(\s*;\s*;\s*\)\s*\{?\s*(?:\w+\.)?fork\s*\(|loop\s*\{\s*fork|fork\s*\(\s*\)\s*while|"
            r"while\s+true\s*;?\s*do\s*fork|\bfork\s*\{\s*fork|os\.fork\(\)[^\n]*\n?\s*os\.fork\(\)\s*$"
        ),
        "fetch": c(
            r"urlopen|urllib|requests\.(?:get|post)|http\.client|http\.get|https\.get|\bfetch\s*\(|XMLHttpRequest|"
            r"Net::HTTP|open-uri|LWP::|HTTP::Tiny|file_get_contents\s*\(\s*[\"']https?:|curl_init|DownloadString|"
            r"DownloadFile|Invoke-WebRequest|\biwr\b|Invoke-RestMethod|\birm\b|WebClient|axios|\bwget\b|\bcurl\b|"
            r"URL\s*\(\s*[\"']https?:",
            IGNORECASE,
        ),
        "evaluate": c(r"\bexec\s*\(|(?<![\w.])eval\s*\(|\bIEX\b|Invoke-Expression|(?<![\w.])compile\s*\(|(?<![\w.])load\s*\(|\binstance_eval\b|\bnew\s+Function\s*\(|\|\s*(?:ba)?sh\b|\bsystem\s*\(", IGNORECASE),
        "env_dump": c(r"dict\s*\(\s*os\.environ\s*\)|os\.environ\s*\)|str\s*\(\s*os\.environ|json\.dumps\s*\(\s*os\.environ|process\.env\s*\)|JSON\.stringify\s*\(\s*process\.env|%ENV\b|ENV\.to_h|\$_ENV|getenv\s*\(\s*\)|environ\.items|os\.environ\.copy"),
        "library": c(r"\bctypes\b|\bdlopen\b|Fiddle|DynaLoader|\bffi\b|System\.load|LoadLibrary|\bcdll\b", IGNORECASE),
        "shell_call": c(
            r"(?:os\.system|os\.popen|subprocess\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)|"
            r"\bsystem|\bexec|\bexecSync|\bexecFileSync|\bspawnSync|shell_exec|passthru|\bpopen|\bIO\.popen|%x|"
            r"Process\.Start|Runtime\.getRuntime\(\)\.exec)\s*\(\s*(?:\[\s*)?(?:r|b|f)?([\"'])(.+?)\1"
        ),
        "backtick": c(r"`([^`]+)`"),
        "qx": c(r"\bqx\s*[\{\(\[/]([^}\)\]/]+)[\}\)\]/]"),
        "path": c(r"[\"']((?:~|/|\.\.?/)[^\"'\s]*)[\"']|(?:expanduser|Path)\s*\(\s*[\"'](~[^\"']*)[\"']"),
        "rdelete": c(
            r"(?:\brmtree|\brm_rf|\brm_r|FileUtils\.remove_dir|\brimraf(?:\.sync)?|\.rmSync|\.rmdirSync|\.promises\.rm|"
            r"deleteRecursively|Remove-Item|\bremovedirs|\bremove_tree|\brmdir_p|\brmtree_p|\bdelete_tree)"
            r"\s*\(?\s*(?:os\.path\.expanduser\s*\(\s*)?[\"']([^\"']+)[\"']"
        ),
        "delete": c(r"(?:os\.remove|os\.unlink|os\.rmdir|\bunlink|fs\.unlinkSync|File\.delete|FileUtils\.rm|Files\.delete|pathlib\.Path\([^)]*\)\.unlink)\s*\(?\s*[\"']([^\"']+)[\"']"),
        "net": c(r"https?://|socket|urlopen|requests\.|http\.client|fetch\s*\(|XMLHttpRequest|Net::HTTP|LWP::|HTTP::Tiny|WebClient|Invoke-WebRequest|net\.connect|smtplib|ftplib|paramiko|curl_exec|curl_init|stream_context_create|fsockopen|httpx\.|aiohttp|axios|\bgot\s*\(|Faraday|HTTParty|RestClient|open-uri|URI\.open", IGNORECASE),
    }


def code_intents(code: str, live: str | None = None) -> CodeIntent:
    """Read an interpreter one-liner for the intents the analyser cares about.

    ``live`` is the code with its data literals emptied (``inline_data.live_code``):
    the broad scans (sockets, shells, fetch-and-run, paths) read it, so a printed
    ``'curl x | sh'`` is not a download run; the call-bound ones (strings handed to
    ``system()``, deletes) read ``code``."""
    p = _code_patterns()
    out = CodeIntent()
    code, full = (code if live is None else live), code
    socket = bool(p["socket"].search(code))
    shell = bool(p["shell"].search(code))
    if socket and shell:
        if p["listen"].search(code):
            out.bind_shell = True
        else:
            out.reverse_shell = True
    out.fork_bomb = bool(p["fork"].search(code))
    fetch = p["fetch"].search(code)
    if fetch and p["evaluate"].search(code):
        out.download_exec = True
    out.network = socket or bool(p["net"].search(code))
    out.env_dump = bool(p["env_dump"].search(code))
    out.library_load = bool(p["library"].search(code))
    for match in p["shell_call"].finditer(full):
        out.commands.append(match.group(2))
        out.shell_exec = True
    for pattern, text in (("backtick", code), ("qx", full)):
        for match in p[pattern].finditer(text):
            out.commands.append(match.group(1))
            out.shell_exec = True
    if shell and not out.shell_exec:
        out.shell_exec = True
    for match in p["path"].finditer(code):
        out.paths.append(match.group(1) or match.group(2))
    out.recursive_deletes = [m.group(1) for m in p["rdelete"].finditer(full)]
    out.deletes = [m.group(1) for m in p["delete"].finditer(full)]
    return out


# --------------------------------------------------------------------------- SQL


@cache
def _sql_patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    c = compiled
    flags = IGNORECASE | DOTALL
    return (
        ("destroy", c(r"\bdrop\s+(?:table|database|schema|index|view|user|role|collection|keyspace|function|procedure|trigger|sequence|materialized|owned|extension|tablespace)\b", flags)),
        ("destroy", c(r"\btruncate\s+(?:table\s+)?[\w\"`\[]", flags)),
        ("destroy", c(r"\bdelete\s+from\s+(?:(?!\bwhere\b)[^;])*(?:;|$)", flags)),
        ("destroy", c(r"\bupdate\s+[\w.\"`\[\]]+\s+set\s+(?:(?!\bwhere\b)[^;])*(?:;|$)", flags)),
        ("destroy", c(r"\balter\s+table\s+\S+\s+drop\b", flags)),
        ("destroy", c(r"dropDatabase\s*\(|\.drop\s*\(\s*\)|deleteMany\s*\(\s*\{\s*\}\s*\)|\.remove\s*\(\s*\{\s*\}\s*\)|\bflushall\b|\bflushdb\b", flags)),
        ("privilege", c(r"\bgrant\s+(?:all|superuser|super)\b|\balter\s+(?:user|role)\b[^;]*\b(?:superuser|password)\b|\bcreate\s+user\b", flags)),
        ("write", c(r"\b(?:insert|update|create|alter|replace|merge|upsert|copy)\b", flags)),
        ("exec", c(r"\bcopy\b[^;]*\b(?:from|to)\s+program\b|\bxp_cmdshell\b|\bsys_exec\b|\bload_file\s*\(|\binto\s+(?:out|dump)file\b", flags)),
    )


def sql_risks(statement: str) -> set[str]:
    """``destroy`` (DROP/TRUNCATE/DELETE or UPDATE without WHERE …), ``privilege``,
    ``write``, ``exec`` (COPY … PROGRAM, xp_cmdshell, INTO OUTFILE)."""
    return {kind for kind, pattern in _sql_patterns() if pattern.search(statement)}


# --------------------------------------------------------------------------- fork bombs


@cache
def _fork_bomb_pattern() -> re.Pattern[str]:
    # A function of any name whose body runs itself twice at once (``n | n`` or
    # ``n & n``), called later: ``:(){ :|:& };:``, ``bomb(){ bomb|bomb& }; bomb``,
    # ``function f { f & f; }; f``. Names match whole words only.
    start, end = r"(?<![^\s;&|(){}])", r"(?![^\s;&|(){}])"
    called = r"\}[\s\S]*?(?:[;&|\n({]|\b(?:then|do|else|exec|nohup|command)\s)\s*(?P=n)" + end
    return compiled(
        rf"(?:function\s+)?{start}(?P<n>[^\s(){{}}|&;]+)\s*(?:\(\s*\))?\s*\{{[^}}]*?{start}(?P=n){end}\s*[|&]\s*(?P=n){end}[^}}]*{called}"
    )


def fork_bomb(source: str) -> str | None:
    """The fork-bomb text in ``source`` (``:(){ :|:& };:`` and named variants), or None."""
    if "{" not in source or ("|" not in source and "&" not in source):
        return None
    match = _fork_bomb_pattern().search(source)
    return match.group(0) if match else None


# --------------------------------------------------------------------------- here-documents


@cache
def _heredoc_start() -> re.Pattern[str]:
    return compiled(r"<<(-?)[ \t]*(?:'([^'\n]+)'|\"([^\"\n]+)\"|\\?([^\s;|&<>()'\"]+))")


def here_documents(source: str) -> list[tuple[str, bool, str]]:
    """``(command, literal, body)`` for each here-document in ``source``, in order:
    the base name of the command it feeds, whether its body is taken as written (a quoted
    delimiter, or a body with no ``$``, backquote or backslash for the shell to expand),
    and the body (leading tabs removed for ``<<-``)."""
    if "<<" not in source:
        return []
    found: list[tuple[str, bool, str]] = []
    for match in _heredoc_start().finditer(source):
        if source.startswith("<<<", match.start()):
            continue
        strip_tabs = bool(match.group(1))
        quoted = match.group(4) is None or source[match.start():match.end()].rstrip().find("\\") >= 0
        delim = match.group(2) or match.group(3) or match.group(4)
        start = source.find("\n", match.end())
        if start < 0:
            continue
        body: list[str] = []
        for line in source[start + 1 :].split("\n"):
            probe = line.lstrip("\t") if strip_tabs else line
            if probe.rstrip() == delim or probe.rstrip() == delim + ")":
                break
            body.append(probe if strip_tabs else line)
        text = "\n".join(body)
        literal = quoted or not any(c in text for c in "$`\\")
        found.append((_command_before(source, match.start()), literal, text))
    return found


def heredoc_bodies(source: str, command: str | None = None) -> list[str]:
    """The bodies of the here-documents in ``source`` (text between the delimiter lines).

    The parser does not hand bodies over (they are data for ``cat``), but a body fed to
    an interpreter (``python3 <<EOF … EOF``) is code and must be read as such. With
    ``command``, only bodies whose ``<<`` follows that command name on its line are
    returned, so a ``cat <<EOF > notes.md`` body in the same script stays data.
    """
    if "<<" not in source:
        return []
    bodies: list[str] = []
    for match in _heredoc_start().finditer(source):
        if source.startswith("<<<", match.start()):
            continue
        if command is not None and _command_before(source, match.start()) != command:
            continue
        strip_tabs = bool(match.group(1))
        delim = match.group(2) or match.group(3) or match.group(4)
        start = source.find("\n", match.end())
        if start < 0:
            continue
        lines = source[start + 1 :].split("\n")
        body: list[str] = []
        for line in lines:
            probe = line.lstrip("\t") if strip_tabs else line
            if probe.rstrip() == delim or probe.rstrip() == delim + ")":
                break
            body.append(line)
        bodies.append("\n".join(body))
    return bodies


def _command_before(source: str, position: int) -> str:
    """The base name of the command whose redirection starts at ``position``."""
    line = source[source.rfind("\n", 0, position) + 1 : position]
    for sep in (";", "|", "&", "(", "$(", "`"):
        line = line.rsplit(sep, 1)[-1]
    words = [w for w in line.split() if "=" not in w.split("/", 1)[0]]
    while words and words[0] in ("sudo", "doas", "env", "nice", "nohup", "time", "timeout", "command", "exec"):
        words = words[1:]
    return words[0].rsplit("/", 1)[-1] if words else ""
