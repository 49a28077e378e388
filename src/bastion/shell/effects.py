"""What an interpreter one-liner *does*, beyond the lexical intents of ``inline.py``.

``python -c``, ``perl -e``, ``ruby -e``, ``node -e`` and ``php -r`` code can destroy as
much as the shell can, through the language's own process and file calls. This module
follows those calls:

* a string handed to a shell by a process call (``system "…"``, ``exec(q{…})``,
  ``subprocess.run(['bash', '-c', X])``, ``spawn('sh', ['-c', X])``) is a shell command,
  and an argv list (``exec "rm", "-rf", "/"``) is one too: both go to ``Facts.nested``
  so hard blocks apply to them;
* an unbounded loop around ``fork`` is a fork bomb (HB004);
* a recursive delete whose target is the home directory spelled in the language
  (``os.homedir()``, ``Dir.home``, ``$ENV{HOME}``, ``Path.home()``) is folded to ``~``
  before ``inline.code_intents`` reads it, so HB001 applies;
* opening a block device for writing is HB003; chmod with a setuid bit on a shell or
  interpreter is HB017.

Each kind of knowledge is one table of records (pattern, why, examples) that the tests
read; the code below only walks the tables. Patterns are compiled on first use.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from functools import cache

__all__ = ["Rule", "HOME_SPELLINGS", "PROCESS_CALLS", "FORK_LOOPS", "fold_home", "shell_commands", "fork_loop", "device_writes", "setid_chmods", "SHELL_SERVERS"]


@dataclass(frozen=True)
class Rule:
    """One call pattern: the regex, why it matters, and examples that must (not) match."""

    pattern: str
    why: str
    match: tuple[str, ...] = ()
    not_match: tuple[str, ...] = ()


#: Expressions that evaluate to the user's home directory, per language.
HOME_SPELLINGS: tuple[Rule, ...] = (
    Rule(r"(?:require\s*\(\s*[\"']os[\"']\s*\)|\bos)\.homedir\s*\(\s*\)", "node: os.homedir()", ("require('os').homedir()", "os.homedir()")),
    Rule(r"\bDir\.home\b(?:\s*\(\s*\))?", "ruby: Dir.home", ("Dir.home",)),
    Rule(r"\$ENV\s*\{\s*[\"']?HOME[\"']?\s*\}", "perl: $ENV{HOME}", ("$ENV{HOME}", "$ENV{'HOME'}")),
    Rule(r"\b(?:pathlib\.)?Path\.home\s*\(\s*\)", "python: Path.home()", ("Path.home()", "pathlib.Path.home()")),
    Rule(r"\b(?:os\.path\.)?expanduser\s*\(\s*[\"']~/?[\"']\s*\)", "python: expanduser('~')", ("os.path.expanduser('~')",)),
    Rule(r"\bos\.environ\s*(?:\[\s*|\.get\s*\(\s*)[\"']HOME[\"']\s*[\])]|\bos\.getenv\s*\(\s*[\"']HOME[\"']\s*\)", "python: os.environ['HOME']", ("os.environ['HOME']", "os.getenv('HOME')")),
    Rule(r"\bprocess\.env\.HOME\b|\bprocess\.env\s*\[\s*[\"']HOME[\"']\s*\]", "node: process.env.HOME", ("process.env.HOME",)),
    Rule(r"\bENV\s*(?:\[\s*|\.fetch\s*\(\s*)[\"']HOME[\"']\s*[\])]", "ruby: ENV['HOME']", ("ENV[\"HOME\"]",)),
    Rule(r"\bgetenv\s*\(\s*[\"']HOME[\"']\s*\)|\$_SERVER\s*\[\s*[\"']HOME[\"']\s*\]", "php: getenv('HOME')", ("getenv(\"HOME\")",)),
)

#: Calls that start a process; their literal arguments are a shell string (one
#: argument) or an argv (several; ``[shell, '-c', X]`` gives X).
PROCESS_CALLS: tuple[Rule, ...] = (
    Rule(r"\bos\.(?:system|popen|exec\w*|spawn\w*|posix_spawnp?)\b", "python: os process calls", ("os.system('x')", "os.execvp('sh', ['sh','-c','x'])")),
    Rule(
        r"\bsubprocess\.\w+\b|\bpty\.spawn\b|\.(?:check_call|check_output|Popen|getoutput|getstatusoutput)\b|\b(?:\w+)\.(?:run|call)(?=\s*\(\s*\[)",
        "python: subprocess, also imported under another name (list or shell=True string)",
        ("subprocess.run(['bash','-c','x'])", "s.check_call(['sh','-c','x'])", "sp.run(['sh','-c','x'])"),
    ),
    Rule(r"(?<![\w.$])(?:CORE::)?(?:system|exec)\b", "perl/ruby/php system and exec, with or without parentheses", ("system \"x\"", "exec(q{x})")),
    Rule(r"\b(?:Process\.)?spawn\b|\bIO\.popen\b|\bOpen3\.\w+|\bKernel\.(?:system|exec|spawn)\b", "ruby: spawn, IO.popen, Open3", ("Process.spawn(\"x\")",)),
    Rule(r"\b(?:execSync|execFileSync|execFile|spawnSync)\b|\.(?:exec|spawn)\b", "node: child_process", ("require('child_process').spawn('sh', ['-c', 'x'])",)),
    Rule(r"\b(?:shell_exec|passthru|popen|proc_open|pcntl_exec)\b", "php: shell calls", ("passthru(\"x\")",)),
)

#: Unbounded loops; with a fork call inside the same code they are a fork bomb.
FORK_LOOPS: tuple[Rule, ...] = (
    Rule(r"\bfork\b[^;\n]*\b(?:while|until)\s*\(?\s*(?:1|true|!0|0)\b", "perl/ruby statement modifier: fork while 1", ("fork while 1", "fork() while 1")),
    Rule(r"\bwhile\s*\(?\s*(?:1|true|True|!0)\s*\)?\s*(?::|\{|do\b)?", "while(1) / while True / while true do", ("while(1){fork}", "while True: os.fork()")),
    Rule(r"\bfor\s*\(\s*;\s*;\s*\)|\bloop\s*(?:\{|do\b)", "for(;;) / loop {}", ("for(;;){fork()}", "loop { fork }")),
    Rule(r"\bitertools\.count\s*\(|\bcount\s*\(\s*\)|\biter\s*\(\s*int\s*,", "python: endless iterators", ("itertools.count()", "iter(int, 1)")),
)

_FORK_CALL = r"(?:\b(?:os\.|Process\.|posix\.)?fork\b|\bpcntl_fork\b|child_process[^;]*\.fork\b)"

#: Calls that open a path for writing (the device is a literal path in the call).
DEVICE_WRITES = Rule(
    r"(?P<call>\bopen|\bFile\.(?:open|write|new)|\bIO\.write|\bwriteFileSync|\bwriteFile|\bopenSync|\bcreateWriteStream|\bfopen|\bfile_put_contents|\bsysopen)\s*\(?\s*(?:my\s+)?(?:\$\w+\s*,\s*)?(?:[\"'][+<>]*[\"']\s*,\s*)?[\"'](?P<mode1>[+<>]*\s*)(?P<path>/dev/[^\"'\s]+)[\"'](?P<rest>[^)\n;]*)",
    "a block device opened for writing destroys the filesystem on it",
    ("open('/dev/sda','wb')", "File.open(\"/dev/sda\", \"w\")", "writeFileSync('/dev/sda', b)", "open(my $f, \">\", \"/dev/sda\")"),
    ("open('/dev/null','w')", "print(os.path.exists('/dev/sda'))", "open('/dev/sda','rb')"),
)

#: chmod calls whose mode argument is a literal number.
SETID_CHMOD = Rule(
    r"\b(?:chmod|chmodSync|lchmod|fchmod)\s*\(?\s*(?P<args>[^)\n;]*)",
    "a setuid/setgid bit on a shell or interpreter gives root to whoever runs it",
    ("os.chmod('/bin/bash', 0o4755)", "chmod 04755, \"/bin/sh\"", "File.chmod(04755, \"/bin/bash\")"),
    ("os.chmod('script.sh', 0o755)",),
)

#: Servers that run a login program for each connection: with a shell as that program,
#: anyone who connects has a shell (bind shell, HB007). name → options naming the program.
SHELL_SERVERS: dict[str, tuple[str, ...]] = {
    "telnetd": ("-l",),
    "utelnetd": ("-l",),
    "in.telnetd": ("-L", "-l"),
}


@cache
def _compiled(rules: tuple[Rule, ...]) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{r.pattern})" for r in rules))


@cache
def _one(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def fold_home(code: str) -> str:
    """``code`` with each home-directory expression replaced by the literal ``"~"``."""
    if not any(k in code for k in ("home", "HOME", "expanduser")):
        return code
    return _compiled(HOME_SPELLINGS).sub('"~"', code)


# --------------------------------------------------------------------------- literals

_PAIRS = {"{": "}", "(": ")", "[": "]", "<": ">"}
_ESCAPES = {"n": "\n", "t": "\t", "0": "\0"}


def _literal(code: str, i: int, bracket: bool = False) -> tuple[str, int] | None:
    """The string literal starting at ``i`` (quotes, perl ``q{}``/``qq{}``, ruby
    ``%q()``), unescaped, and the index after it; None when none starts there."""
    n = len(code)
    m = _one(r"(?:[rbuRBU]{1,2}(?=[\"'])|q[qw]?\s*(?=[^\w\s,;])|%[qQw]?(?=[({\[<]))").match(code, i)
    if m:
        i = m.end()
    if i >= n:
        return None
    open_ = code[i]
    if (m or bracket) and open_ not in "\"'" or open_ in "\"'`":
        close = _PAIRS.get(open_, open_)
    else:
        return None
    out: list[str] = []
    j = i + 1
    while j < n:
        c = code[j]
        if c == "\\" and j + 1 < n:
            nxt = code[j + 1]
            out.append(_ESCAPES.get(nxt, nxt))
            j += 2
            continue
        if c == close:
            return "".join(out), j + 1
        out.append(c)
        j += 1
    return None


def _literal_args(code: str, i: int) -> list[str]:
    """The literal arguments of a call whose name ends at ``i``: strings separated by
    commas, through ``(`` and ``[`` wrappers; stops at the first non-literal."""
    args: list[str] = []
    n = len(code)
    while i < n:
        c = code[i]
        if c in " \t(,[":
            i += 1
            continue
        lit = _literal(code, i)
        if lit is None:
            break
        args.append(lit[0])
        i = lit[1]
    return args


_SHELLS = frozenset("sh bash dash zsh ksh mksh ash busybox".split())


def _from_argv(args: list[str]) -> str | None:
    for k, word in enumerate(args[:-2]):
        if word.rsplit("/", 1)[-1] in _SHELLS and args[k + 1].startswith("-") and "c" in args[k + 1]:
            return args[k + 2]
    if len(args) == 1:
        return args[0]
    if args:
        return shlex.join(args)
    return None


def shell_commands(code: str) -> list[str]:
    """Shell command lines the code hands to the operating system through its process
    calls (``PROCESS_CALLS``), plus perl ``qx``/ruby ``%x`` bodies."""
    out: list[str] = []
    for m in _compiled(PROCESS_CALLS).finditer(code):
        command = _from_argv(_literal_args(code, m.end()))
        if command and command not in out:
            out.append(command)
    for m in _one(r"(?<![\w$])(?:qx\s*|%x)(?=[^\w\s,;])").finditer(code):
        lit = _literal(code, m.end(), bracket=True)
        if lit and lit[0] not in out:
            out.append(lit[0])
    return out


def _code_only(code: str) -> str:
    """``code`` with string literal contents blanked (``print "fork"`` is not a fork)."""
    return _one(r"\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'").sub('""', code)


def fork_loop(code: str) -> bool:
    """An unbounded loop and a fork call in the same code: processes multiply until the
    machine stalls."""
    if "fork" not in code:
        return False
    bare = _code_only(code)
    return bool(_one(_FORK_CALL).search(bare) and _compiled(FORK_LOOPS).search(bare))


_WRITE_ONLY_CALLS = frozenset({"File.write", "IO.write", "writeFileSync", "writeFile", "createWriteStream", "file_put_contents"})


def device_writes(code: str) -> list[str]:
    """Device paths the code opens for writing (``open('/dev/sda', 'wb')``)."""
    if "/dev/" not in code:
        return []
    out: list[str] = []
    for m in _one(DEVICE_WRITES.pattern).finditer(code):
        head = code[m.end("call") : m.start("path")]
        writes = (
            m.group("call") in _WRITE_ONLY_CALLS
            or any(c in m.group("mode1") + head for c in "+>")  # perl "> /dev/sda", ">"
            or bool(_one(r"^\s*,\s*(?:[\"'][^\"']*[wa+][^\"']*[\"']|[^,)]*O_(?:WRONLY|RDWR))").search(m.group("rest")))
        )
        if writes:
            out.append(m.group("path"))
    return out


def setid_chmods(code: str) -> list[tuple[str, str]]:
    """(mode, path) for chmod calls that set a setuid/setgid bit with a literal path."""
    if "chmod" not in code:
        return []
    out: list[tuple[str, str]] = []
    for m in _one(SETID_CHMOD.pattern).finditer(code):
        args = m.group("args")
        mode = _one(r"(?<![\w\"'])0?[oO]?([0-7]{4,5})\b").search(args)
        path = _one(r"[\"']([^\"']+)[\"']").search(args)
        if mode and path and int(mode.group(1), 8) & 0o6000:
            out.append((mode.group(1), path.group(1)))
    return out
