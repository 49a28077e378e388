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
  interpreter is HB017;
* which calls make a string literal a file or code rather than data (``FILE_CALLS``,
  ``WRITE_CALLS``, ``CODE_CALLS``, ``PATH_METHODS``; ``INDIRECT_CALLS`` end the
  narrowing): ``inline_data.live_code`` empties the rest, so printed text stays data;
* path pieces are joined (``Dir.home + '/.netrc'``, ``os.path.join(…)``) so a secret
  read through the language's file API is seen, and sent through its network API is
  HB008.

Each kind of knowledge is one table of records (pattern, why, examples) that the tests
read; the code below only walks the tables. Patterns are compiled on first use.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...precompiled import pattern as compiled_pattern
from ...std_lite import cache
from ..syntax.quoting import join as shell_join

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re

__all__ = ["Rule", "HOME_SPELLINGS", "PROCESS_CALLS", "FILE_CALLS", "WRITE_CALLS", "CONTENT_CALLS", "CODE_CALLS", "INDIRECT_CALLS", "PATH_METHODS", "FORK_LOOPS", "fold_home", "shell_commands", "fork_loop", "device_writes", "setid_chmods"]


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
    Rule(
        r"\bos\.(?:system|popen|exec\w*|spawn\w*|posix_spawnp?)\b|\.(?:system|popen|exec[lv]p?e?|spawn[lv]p?e?|posix_spawnp?)\b",
        "python: os process calls, also through __import__('os') or an alias",
        ("os.system('x')", "os.execvp('sh', ['sh','-c','x'])", "__import__('os').system('x')"),
    ),
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

#: Calls that open, read, write, copy, move or delete a file: a literal path they
#: receive is a file the code touches (a secret read, a startup file written). A path
#: that is only printed, compared or returned is data (``inline_data.live_code``).
FILE_CALLS: tuple[Rule, ...] = (
    Rule(
        r"(?<![\w.$])(?:open|execfile)\b|\b(?:io|os|codecs|tarfile|gzip|bz2|lzma|zipfile|linecache|shelve|dbm|sqlite3)\.(?:open|fdopen|getlines|ZipFile|connect)\b|"
        r"\bshutil\.\w+|\bos\.(?:remove|unlink|rmdir|removedirs|rename|renames|replace|chmod|chown|link|symlink|truncate)\b|\b(?:json|yaml|pickle|toml|tomllib|plistlib|configparser|np|numpy|pandas|pd)\.(?:load|safe_load|full_load|read_\w+|loadtxt|fromfile)\b|\burlretrieve\b",
        "python: open(), io/os/codecs/archive openers, shutil, os file calls, loaders",
        ("open('x')", "shutil.copy('a','b')", "os.remove('x')", "codecs.open('x')"),
        ("print('x')", "os.path.exists('x')"),
    ),
    Rule(
        r"\b(?:pathlib\.)?(?:Pure|Posix)?Path\b(?=[^;\n]*\.(?:read_text|read_bytes|write_text|write_bytes|open|unlink|rmdir|rename|replace|chmod|touch|symlink_to|hardlink_to|link_to)\s*\()",
        "python: a pathlib path that is then read, written or removed",
        ("Path('~/.netrc').expanduser().read_text()",),
        ("print(Path('x'))",),
    ),
    Rule(
        r"\b(?:readFileSync|readFile|createReadStream|writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream|copyFileSync|copyFile|cpSync|openSync|renameSync|unlinkSync|rmSync|rmdirSync|symlinkSync|linkSync|truncateSync|chmodSync|chownSync|readTextFile(?:Sync)?|readFile(?:Sync)?|writeTextFile(?:Sync)?|remove(?:Sync)?)\b|\bfs(?:\.promises)?\.(?:open|rm|rmdir|rename|unlink|cp|chmod|readdir)\b|\bBun\.(?:file|write)\b",
        "node/deno/bun: fs calls",
        ("require('fs').readFileSync('x')", "fs.promises.rm('x')", "Deno.readTextFile('x')"),
        ("console.log('x')",),
    ),
    Rule(
        r"\b(?:File|IO|Pathname|FileUtils|Dir|YAML|JSON|CSV|Zlib::GzipReader|Marshal)(?:\.|::)(?:read|readlines|binread|foreach|open|new|write|binwrite|copy_stream|load|load_file|safe_load_file|parse_file|readlink|delete|unlink|rename|symlink|link|chmod|chown|truncate|copy|copy_file|cp|cp_r|mv|rm|rm_r|rm_rf|rm_f|remove|remove_dir|remove_entry|remove_entry_secure|install|ln|ln_s|ln_sf|touch|mkdir_p|rmdir|entries|children)\b",
        "ruby: File, IO, Pathname, FileUtils and file loaders",
        ("File.read('x')", "IO.readlines('x')", "FileUtils.rm_rf('x')"),
        ("File.exist?('x')", "puts 'x'"),
    ),
    Rule(
        r"(?<![\w.$>])(?<!::)(?:CORE::)?(?:sysopen|unlink|rename|symlink|link|chmod|chown|truncate|copy|move|cp|mv|rmtree|remove_tree|make_path|mkpath|read_file|write_file|slurp|spurt|path)\b|@ARGV\b[^;=\n]*=|\bFile::(?:Copy|Path|Slurp)::\w+|\bPath::Tiny\b",
        "perl: sysopen, unlink, rename, chmod, File::Copy/Path/Slurp, a file list given to <> (@ARGV)",
        ("unlink 'x'", "local(@ARGV, $/) = 'x'", "remove_tree('x')"),
        ("print 'x'",),
    ),
    Rule(
        r"(?<![\w>$])(?<!::)(?:file_get_contents|file_put_contents|fopen|file|readfile|fpassthru|copy|rename|unlink|rmdir|chmod|chown|symlink|link|touch|highlight_file|show_source|parse_ini_file|simplexml_load_file|gzopen|SplFileObject|SplFileInfo|include|include_once|require|require_once)\b",
        "php: file functions (and include/require, which read and run a file)",
        ("file_get_contents('x')", "fopen('x', 'r')"),
        ("echo 'x';", "file_exists('x')"),
    ),
)

#: Calls that write text into an open file: what they write may run later (a line
#: added to ``~/.bashrc``), so it is read like a command, not like printed data.
WRITE_CALLS = Rule(
    r"(?<!stdout)(?<!stderr)(?<!console)\.(?:write|writelines|write_text|write_bytes|puts|print|syswrite|fwrite)\b|\b(?:fwrite|fputs|syswrite)\b|\bprintf?\s+(?:\$\w+|\{\s*\$\w+\s*\}|(?!STDOUT\b|STDERR\b)[A-Z]\w*)(?=\s+[\"'$q])",
    "file.write('…'), fwrite($f, '…'), perl print $fh '…': text put into a file",
    ("open('x','a').write('y')", "Path('x').write_text('y')", "fwrite($f, 'y')", "print $fh \"y\"", "print F 'y'"),
    ("sys.stdout.write('y')", "print 'y'", "print STDERR 'y'"),
)

#: File calls whose first argument is the file and the rest the text put into it
#: (``File.write("notes.md", "…")``): with :data:`WRITE_CALLS`, what they write is data
#: when every file the code touches is an ordinary workspace file and nothing in the
#: code runs a process or evaluates code (``inline_data.live_code``, ``ordinary``).
CONTENT_CALLS = Rule(
    r"\b(?:File|IO)\.(?:write|binwrite)\b|\b(?:writeFileSync|writeFile|appendFileSync|appendFile|file_put_contents|write_file|spurt|writeTextFile(?:Sync)?)\b|\bBun\.write\b",
    "File.write(path, text), fs.writeFileSync(path, text), file_put_contents(path, text)",
    ("File.write(\"a\", \"b\")", "require('fs').writeFileSync('a', 'b')", "file_put_contents('a', 'b')"),
    ("File.read('a')", "readFileSync('a')"),
)

#: Calls whose string argument is code of the same language or names code (a module):
#: ``eval("…")``, ``exec("…")``, ``require('net')``, ``__import__('os')``.
CODE_CALLS: tuple[Rule, ...] = (
    Rule(
        r"(?<![\w.$>])(?<!::)(?:eval|exec|compile|assert|create_function|require|require_relative|load|__import__|import_module|instance_eval|class_eval|module_eval|evalcx)\b|\bnew\s+Function\b|\bvm\.\w+|\bimportlib\.\w+|\bimport\s*(?=\()|\bBinding\b|\bbinding\.eval\b",
        "eval/exec/compile and module loaders: their string is code, not data",
        ("eval('x')", "require('net')", "__import__('os')", "new Function('x')"),
        ("evaluate(x)", "json.load(f)", "re.compile('x')"),
    ),
)

#: Calls the scan cannot follow to a callee (a function picked by name at run time, a
#: process module under another name): code that uses one keeps every literal live.
INDIRECT_CALLS = Rule(
    r"\b(?:getattr|__getattribute__|globals|locals|vars|call_user_func(?:_array)?|array_map|array_walk|forward_static_call|send|public_send|__send__|method|const_get|instance_method|Reflect\.apply|Function)\s*\(|"
    r"\$\w+\s*\(|\]\s*\(|->\s*\(|&\s*\$\w+|&\{|"
    r"\bimport\s+(?:subprocess|os|pty|posix|commands|shutil)\s+as\b|\bfrom\s+(?:subprocess|os|pty|posix|commands|shutil|pathlib)\s+import\b",
    "getattr(os, 'system')(…), call_user_func('system', …), $f(…), x['exec'](…), from subprocess import run",
    ("getattr(os, 'system')('x')", "call_user_func('system', 'x')", "$f('x')", "cp['execSync']('x')", "from subprocess import run"),
    ("print('x')", "os.system('x')"),
)

#: Methods that, called on a path literal, read, write or remove the file
#: (``(Path.home() / '.netrc').read_text()`` folds to ``("~/.netrc").read_text()``).
PATH_METHODS = Rule(
    r"^\s*\)*\s*(?:\.\s*\w+\s*\([^()]*\)\s*)*\.\s*(?:read_text|read_bytes|write_text|write_bytes|open|unlink|rmdir|chmod|touch|read|readlines|each_line)\s*\(",
    "a path literal read, written or removed through a method",
    (").expanduser().read_text()", ".read_text()"),
    (".replace('~', 'HOME')", ".split('/')"),
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


@cache
def _compiled(rules: tuple[Rule, ...]) -> re.Pattern[str]:
    """The rules' patterns as one (this module's own text: kept, built without re)."""
    return compiled_pattern("|".join(f"(?:{r.pattern})" for r in rules))


@cache
def _one(pattern: str) -> re.Pattern[str]:
    """A pattern of this module's own text (never a command's): kept, built without re."""
    return compiled_pattern(pattern)


def fold_home(code: str) -> str:
    """``code`` with each home-directory expression replaced by the literal ``"~"``, and
    literal paths built from pieces joined into one (``"~" + '/.netrc'``,
    ``os.path.join("~", ".ssh", "id_rsa")``, ``Path.home() / ".aws"``), so that a
    secret or a home folder reached through the language's own API is seen."""
    if any(k in code for k in ("home", "HOME", "expanduser")):
        home = _compiled(HOME_SPELLINGS).pattern
        # inside a string: "#{Dir.home}/x", `${os.homedir()}/x`, f"{Path.home()}/x"
        code = _one(rf"(?:#\{{|\$\{{|\{{)\s*(?:{home})\s*\}}").sub("~", code)
        code = _compiled(HOME_SPELLINGS).sub('"~"', code)
        code = code.replace('""~""', '"~"').replace('""~"/', '"~/')  # perl "$ENV{HOME}/x"
    if ("+" in code or "join" in code or "/" in code or "." in code) and code.count("'") + code.count('"') >= 4:
        code = _join_literals(code)
    return code


_LIT = r"([\"'])([^\"'`\\\n]*)\{q}"


def _join_literals(code: str) -> str:
    """``'a' + 'b'`` / ``"a" . "b"`` → ``"ab"``; ``"a" / "b"`` and ``join("a", "b")`` →
    ``"a/b"`` (only plain literals without escapes)."""
    concat = _one(_LIT.format(q=1) + r"\s*([+./])\s*" + _LIT.format(q=4))
    join = _one(r"(?:\brequire\s*\(\s*[\"']path[\"']\s*\)\.join|\b(?:os\.path\.join|path\.join|posixpath\.join|File\.join|catfile|join_paths|joinpath))\s*\(\s*((?:[\"'][^\"'\\\n]*[\"']\s*,\s*)+[\"'][^\"'\\\n]*[\"'])\s*\)")
    for _ in range(8):
        before = code

        def glue(m: re.Match[str]) -> str:
            a, op, b = m.group(2), m.group(3), m.group(5)
            if op == "/" and not (a.startswith("~") or a.startswith("/")):
                return m.group(0)  # division, not a path
            if op == "." and m.group(1) == "'" and not a:
                return m.group(0)
            text = a.rstrip("/") + "/" + b.lstrip("/") if op == "/" else a + b
            return '"' + text + '"'

        code = concat.sub(glue, code)
        code = join.sub(lambda m: '"' + "/".join(x.strip("/") if k else x.rstrip("/") for k, x in enumerate(_one(r"[\"']([^\"']*)[\"']").findall(m.group(1)))) + '"', code)
        if code == before:
            break
    return code


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
    depth = 0  # perl q{…} and ruby %q(…) nest their brackets: q{f() { f | f & }; f}
    j = i + 1
    while j < n:
        c = code[j]
        if c == "\\" and j + 1 < n:
            nxt = code[j + 1]
            out.append(_ESCAPES.get(nxt, nxt))
            j += 2
            continue
        if c == close and depth == 0:
            return "".join(out), j + 1
        if close != open_:
            depth += (c == open_) - (c == close)
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
        return shell_join(args)
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
