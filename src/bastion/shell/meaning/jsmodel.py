"""What a JavaScript program (node, bun, deno, ts-node, tsx) does, said in shell.

The program is parsed by tree-sitter-javascript and walked once, in order, with a small
abstract interpreter: constants are folded (literals, template literals, ``+``,
``[…].join('')``, ``String.fromCharCode``, ``Buffer.from(x, 'base64'|'hex')``,
``atob``, reversed strings, ``decodeURIComponent``, home spellings → ``~``, ``path.join``),
modules and their functions are followed through ``require``/``import``/destructuring/
aliases, and each call is looked up in :data:`API`, one table of records that says what
every known callee does (runs a shell string, deletes a path, writes a file, connects,
evaluates code, or nothing harmful). Effects become shell equivalents
(:mod:`.program`); values that travel from a socket or a download into a process or an
``eval`` become flags. Anything the interpreter cannot know is unknown: a process call,
``eval`` or delete with an unknown argument goes to ``opaque``.

TypeScript one-liners are nearly always plain JavaScript; anything the JavaScript parser
reports as an error makes :func:`read` return None, and the caller asks.
"""

from __future__ import annotations

import base64
import binascii
import json
import posixpath
from dataclasses import dataclass, field
from urllib.parse import unquote

from ...precompiled import regex
from .models import MAX_DEPTH
from .program import MAX_DECODED, ProgramEffects, destroys, shell_line, shell_word

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from typing import Any

__all__ = ["read", "API", "Api"]

#: Source bigger than this is not read (the caller asks).
MAX_SOURCE = 200_000
#: Tree nodes visited across the program, its functions and the code it evaluates.
MAX_WORK = 60_000
#: Elements a constant loop or ``map`` is unrolled over.
MAX_UNROLL = 64
#: How deep user functions may call each other.
MAX_CALLS = 12

_PARSER: Any = None


def _parser() -> Any:
    """One tree-sitter parser per process, created on first use."""
    global _PARSER
    if _PARSER is None:
        import tree_sitter
        import tree_sitter_javascript

        _PARSER = tree_sitter.Parser(tree_sitter.Language(tree_sitter_javascript.language()))
    return _PARSER


class _TooMuch(Exception):
    """The program needs more work than :data:`MAX_WORK` (the caller asks)."""


# --------------------------------------------------------------------------- values


@dataclass(eq=False)
class V:
    """An abstract value. ``kind``: str, num, bool, null, ref (a known API by its dotted
    path in ``text``), arr, obj, fn (a function of the program), promise, glob (any of
    the names a shell pattern in ``text`` matches: an entry ``readdirSync`` listed, so
    ``path.join(home, f)`` is ``~/*``), any (unknown, ``tags`` say where it came from:
    net, sock, server, proc, env, wfile; ``listing``: a directory listing's size)."""

    kind: str
    text: str = ""
    num: float = 0.0
    items: tuple[V, ...] = ()
    keys: tuple[str, ...] = ()
    tags: frozenset[str] = frozenset()
    node: Any = None
    scope: Any = None


ANY = V("any")
UNDEFINED = V("null", "undefined")
_NO_TAGS: frozenset[str] = frozenset()


def _str(text: str) -> V:
    return V("str", text) if len(text) <= MAX_DECODED else ANY


def _num(x: float) -> V:
    return V("num", num=x)


def _any(*values: V, tags: frozenset[str] = _NO_TAGS) -> V:
    """An unknown value carrying the origins of ``values``."""
    union = set(tags)
    for v in values:
        union |= _tags(v)
    return V("any", tags=frozenset(union)) if union else ANY


def _tags(v: V) -> frozenset[str]:
    if v.kind == "ref" and v.text == "process.env":
        return frozenset({"env"})
    return v.tags


def _deep_tags(v: V, budget: int = 200) -> frozenset[str]:
    """Tags of ``v`` and of everything inside it (an object literal, an array)."""
    found = set(_tags(v))
    stack = list(v.items)
    while stack and budget > 0:
        budget -= 1
        item = stack.pop()
        found |= _tags(item)
        stack.extend(item.items)
    return frozenset(found)


def _const(v: V) -> bool:
    return v.kind in ("str", "num", "bool", "null")


def _text(v: V) -> str | None:
    """The string JavaScript would make of ``v``, when it is known."""
    if v.kind == "str":
        return v.text
    if v.kind == "num":
        return _num_text(v.num)
    if v.kind in ("bool", "null"):
        return v.text
    if v.kind == "arr":
        parts = [("" if i.kind == "null" else _text(i)) for i in v.items]
        return None if any(p is None for p in parts) else ",".join(p for p in parts if p is not None)
    return None


def _num_text(x: float) -> str:
    if x != x:
        return "NaN"
    if x in (float("inf"), float("-inf")):
        return "Infinity" if x > 0 else "-Infinity"
    if x == int(x) and abs(x) < 1e21:
        return str(int(x))
    return repr(x)


def _truthy(v: V) -> bool | None:
    if v.kind == "str":
        return bool(v.text)
    if v.kind == "num":
        return v.num != 0 and v.num == v.num
    if v.kind == "bool":
        return v.text == "true"
    if v.kind == "null":
        return False
    if v.kind in ("arr", "obj", "fn", "ref", "promise"):
        return True
    return None


def _get(obj: V, key: str) -> V | None:
    """The value of ``key`` in an object literal."""
    if obj.kind == "obj" and key in obj.keys:
        return obj.items[obj.keys.index(key)]
    return None


def _opt(obj: V | None, key: str) -> bool:
    """Whether an options object sets ``key`` to something truthy."""
    if obj is None:
        return False
    value = _get(obj, key)
    return bool(value is not None and _truthy(value))


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
_ESCAPE = regex(r"\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|\r\n|[\s\S])")


def _unescape(raw: str) -> str:
    """A JavaScript string body with its escapes decoded."""

    def one(m: re.Match[str]) -> str:
        e = m.group(1)
        if e[0] == "u" and len(e) > 1:
            code = int(e[2:-1] if e[1] == "{" else e[1:], 16)
            return chr(code) if code <= 0x10FFFF else "\ufffd"
        if e[0] == "x" and len(e) == 3:
            return chr(int(e[1:], 16))
        if e in ("\n", "\r\n", "\u2028", "\u2029"):
            return ""
        return _ESCAPES.get(e, e)

    return _ESCAPE.sub(one, raw)


def _number(raw: str) -> float:
    raw = raw.replace("_", "").rstrip("n").lower()
    if raw.startswith(("0x", "0o", "0b")):
        return float(int(raw[2:], {"x": 16, "o": 8, "b": 2}[raw[1]]))
    if len(raw) > 1 and raw[0] == "0" and raw.isdigit() and not set(raw) & {"8", "9"}:
        return float(int(raw, 8))
    return float(raw)


def _bytes_text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


_NOT_BASE64 = regex(r"[^A-Za-z0-9+/_-]")  # what Buffer.from(…, "base64") skips


def _decode(text: str, encoding: str) -> str | None:
    """``Buffer.from(text, encoding).toString()``."""
    enc = encoding.lower().replace("-", "")
    try:
        if enc in ("base64", "base64url"):
            clean = _NOT_BASE64.sub("", text).replace("-", "+").replace("_", "/")
            return _bytes_text(base64.b64decode(clean + "=" * (-len(clean) % 4)))
        if enc == "hex":
            clean = text[: len(text) - len(text) % 2]
            return _bytes_text(binascii.unhexlify(clean))
        if enc in ("utf8", "ascii", "latin1", "binary", "ucs2", "utf16le"):
            return text
    except (ValueError, binascii.Error):
        return None
    return None


def _encode(text: str, encoding: str) -> str | None:
    """``Buffer.from(text).toString(encoding)``."""
    enc = encoding.lower().replace("-", "")
    data = text.encode("utf-8", "replace")
    if enc == "base64":
        return base64.b64encode(data).decode()
    if enc == "hex":
        return data.hex()
    if enc in ("utf8", "ascii", "latin1", "binary", ""):
        return text
    return None


# ------------------------------------------------------------------ the API table


@dataclass(frozen=True)
class Api:
    """What calling (or constructing) one known API does.

    ``paths``: dotted callee names, space-separated (``Math.*`` matches any member).
    ``does``: the handler (see ``_Reader._api``). Harmless kinds are those in
    :data:`HARMLESS`: a program whose every call is harmless is inert.
    ``example``: a program that makes this call (tests read each one)."""

    paths: str
    does: str
    why: str
    example: str


#: Kinds of calls that change nothing outside the program (reads are listed as
#: ``cat``/``ls`` lines but keep a program inert).
HARMLESS = frozenset({"pure", "print", "log", "read", "list", "require", "home", "cwd", "tmp", "path",
                      "fromcharcode", "buffer", "atob", "btoa", "uri", "stringify", "entries", "timer",
                      "number", "userinfo", "createrequire", "builtin", "identity", "getenv"})

#: Kinds whose effect is a file change given as a shell line (judged there like the
#: typed command): they do not keep a program from being harmless.
FILE_KINDS = frozenset({"rm", "rmdir", "rmtree", "unlink", "write", "append", "wstream", "chmod", "chown", "symlink",
                        "link", "rename", "copy", "cpdir", "mkdir", "truncate"})
#: Method names that run something on whatever object they are called on: handed text,
#: that text may be a command or a query (``conn.exec('rm -rf /')``, ``db.execute(sql)``).
_RUN_METHODS = frozenset({"exec", "execSync", "execute", "run", "system", "spawn", "spawnSync", "command", "shell", "query",
                          "raw", "call"})

API: tuple[Api, ...] = (
    # processes
    Api("child_process.exec child_process.execSync shelljs.exec execa.execaCommand execa.execaCommandSync",
        "shell", "runs its first argument through /bin/sh", "require('child_process').execSync('ls')"),
    Api("child_process.execFile child_process.execFileSync execa execa.execa execa.execaSync",
        "argv", "runs a program with an argument list", "require('child_process').execFileSync('ls', ['-l'])"),
    Api("child_process.spawn child_process.spawnSync", "spawn",
        "runs a program with an argument list, or a shell string with shell: true",
        "require('child_process').spawn('ls', ['-l'])"),
    Api("child_process.fork", "fork", "runs a node script in a new process", "require('child_process').fork('x.js')"),
    Api("Bun.spawn Bun.spawnSync", "bunspawn", "runs an argv array (or {cmd: argv})", "Bun.spawn(['ls'])"),
    Api("Bun.$ zx.$ execa.$", "template_shell", "a tagged template run as a shell line, values quoted",
        "Bun.$`ls`"),
    Api("Deno.Command", "denocommand", "new Deno.Command(cmd, {args}) runs cmd with args",
        "new Deno.Command('ls', {args: ['-l']}).outputSync()"),
    Api("Deno.run", "denorun", "Deno.run({cmd: argv}) runs argv", "Deno.run({cmd: ['ls']})"),
    # files
    Api("fs.rm fs.rmSync fs.promises.rm Deno.remove Deno.removeSync", "rm",
        "deletes a path; with recursive: true a whole tree", "require('fs').rmSync('x')"),
    Api("fs.rmdir fs.rmdirSync fs.promises.rmdir", "rmdir", "removes a directory; recursive: true removes a tree",
        "require('fs').rmdirSync('x')"),
    Api("fs.remove fs.removeSync fs.emptyDir fs.emptyDirSync rimraf rimraf.sync rimraf.rimraf rimraf.rimrafSync "
        "rimraf.default del.deleteSync del.deleteAsync shelljs.rm",
        "rmtree", "deletes a whole tree (fs-extra, rimraf, del)", "require('rimraf').sync('x')"),
    Api("fs.unlink fs.unlinkSync fs.promises.unlink", "unlink", "deletes a file", "require('fs').unlinkSync('x')"),
    Api("fs.writeFile fs.writeFileSync fs.promises.writeFile fs.outputFile fs.outputFileSync Bun.write "
        "Deno.writeTextFile Deno.writeTextFileSync Deno.writeFile Deno.writeFileSync",
        "write", "replaces a file's content", "require('fs').writeFileSync('x', 'y')"),
    Api("fs.appendFile fs.appendFileSync fs.promises.appendFile", "append", "appends to a file",
        "require('fs').appendFileSync('x', 'y')"),
    Api("fs.createWriteStream", "wstream", "opens a file for writing (flags: 'a' appends)",
        "require('fs').createWriteStream('x')"),
    Api("fs.readFile fs.readFileSync fs.promises.readFile fs.createReadStream Bun.file Deno.readTextFile "
        "Deno.readTextFileSync Deno.readFile Deno.readFileSync fs.readJson fs.readJsonSync",
        "read", "reads a file", "console.log(require('fs').readFileSync('package.json', 'utf8'))"),
    Api("fs.readdir fs.readdirSync fs.promises.readdir fs.opendirSync Deno.readDir Deno.readDirSync",
        "list", "lists a directory", "require('fs').readdirSync('.')"),
    Api("fs.existsSync fs.exists fs.statSync fs.stat fs.lstatSync fs.lstat fs.promises.stat fs.promises.lstat "
        "fs.accessSync fs.access fs.promises.access fs.realpathSync fs.realpath fs.readlinkSync Deno.statSync "
        "Deno.stat Deno.cwd",
        "pure", "inspects a path", "require('fs').existsSync('x')"),
    Api("fs.chmod fs.chmodSync fs.promises.chmod fs.lchmodSync Deno.chmod Deno.chmodSync", "chmod",
        "changes a file's mode", "require('fs').chmodSync('x', 0o644)"),
    Api("fs.chown fs.chownSync fs.promises.chown fs.lchownSync Deno.chown Deno.chownSync", "chown",
        "changes a file's owner", "require('fs').chownSync('x', 0, 0)"),
    Api("fs.symlink fs.symlinkSync fs.promises.symlink Deno.symlink Deno.symlinkSync", "symlink",
        "makes a symbolic link (target, path)", "require('fs').symlinkSync('a', 'b')"),
    Api("fs.link fs.linkSync fs.promises.link Deno.link Deno.linkSync", "link", "makes a hard link",
        "require('fs').linkSync('a', 'b')"),
    Api("fs.rename fs.renameSync fs.promises.rename fs.move fs.moveSync Deno.rename Deno.renameSync", "rename",
        "moves a path", "require('fs').renameSync('a', 'b')"),
    Api("fs.copyFile fs.copyFileSync fs.promises.copyFile Deno.copyFile Deno.copyFileSync", "copy",
        "copies a file", "require('fs').copyFileSync('a', 'b')"),
    Api("fs.cp fs.cpSync fs.promises.cp fs.copy fs.copySync", "cpdir", "copies a tree",
        "require('fs').cpSync('a', 'b', {recursive: true})"),
    Api("fs.mkdir fs.mkdirSync fs.promises.mkdir fs.mkdirp fs.mkdirpSync fs.ensureDir fs.ensureDirSync "
        "Deno.mkdir Deno.mkdirSync",
        "mkdir", "makes a directory", "require('fs').mkdirSync('x')"),
    Api("fs.truncate fs.truncateSync fs.promises.truncate Deno.truncate Deno.truncateSync", "truncate",
        "empties a file", "require('fs').truncateSync('x')"),
    # code
    Api("eval Function vm.runInThisContext vm.runInNewContext vm.runInContext vm.Script vm.compileFunction "
        "vm.SourceTextModule",
        "eval", "evaluates a string as JavaScript (a constant one is read again)",
        "eval(process.argv[2])"),
    Api("worker_threads.Worker Worker", "worker", "runs a script (or code with eval: true) in a thread",
        "new (require('worker_threads').Worker)('w.js')"),
    Api("process.dlopen process.binding process._linkedBinding ffi-napi.Library ffi.Library koffi.load",
        "library", "loads native code", "process.binding('fs')"),
    # network
    Api("net.connect net.createConnection tls.connect", "connect", "opens a TCP connection (port, host)",
        "require('net').connect(80, 'example.com')"),
    Api("net.Socket dgram.createSocket", "socket", "a socket; .connect(port, host) opens it",
        "new (require('net').Socket)()"),
    Api("net.createServer tls.createServer", "server", "listens for TCP connections",
        "require('net').createServer(() => {})"),
    Api("fetch http.get http.request https.get https.request axios axios.get axios.post axios.put axios.request "
        "axios.default.get got got.get got.post node-fetch node-fetch.default undici.fetch undici.request "
        "WebSocket ws XMLHttpRequest EventSource",
        "fetch", "talks to a URL or host", "fetch('https://example.com')"),
    # output
    Api("console.log console.info console.debug", "print", "writes its arguments to stdout", "console.log('x')"),
    Api("process.stdout.write", "write_out", "writes text to stdout", "process.stdout.write('x')"),
    Api("console.error console.warn console.trace console.dir console.table console.assert console.time "
        "console.timeEnd console.group console.groupEnd console.count process.stderr.write",
        "log", "writes diagnostics", "console.error('x')"),
    # harmless computation
    Api("require module.require", "require", "loads a module (a local .js file runs its code)",
        "require('path')"),
    Api("module.createRequire", "createrequire", "makes a require function", "require('module').createRequire('.')"),
    Api("process.getBuiltinModule", "builtin", "returns a built-in module", "process.getBuiltinModule('path')"),
    Api("os.homedir", "home", "the home directory, ~", "console.log(require('os').homedir())"),
    Api("Deno.env.get", "getenv", "one environment variable (HOME is ~)", "Deno.env.get('HOME')"),
    Api("os.userInfo", "userinfo", "the user record ({homedir: ~})", "require('os').userInfo()"),
    Api("os.tmpdir", "tmp", "the temporary directory", "require('os').tmpdir()"),
    Api("process.cwd", "cwd", "the working directory, .", "process.cwd()"),
    Api("path.join path.resolve path.normalize path.dirname path.basename path.posix.join path.posix.resolve",
        "path", "folds path arithmetic of constants", "require('path').join('a', 'b')"),
    Api("String.fromCharCode String.fromCodePoint", "fromcharcode", "characters from their codes",
        "String.fromCharCode(104, 105)"),
    Api("Buffer.from", "buffer", "bytes from a string in an encoding, or from numbers",
        "Buffer.from('aGk=', 'base64').toString()"),
    Api("atob", "atob", "base64 decoding", "atob('aGk=')"),
    Api("btoa", "btoa", "base64 encoding", "btoa('hi')"),
    Api("decodeURIComponent decodeURI unescape querystring.unescape", "uri", "percent-decoding",
        "decodeURIComponent('a%20b')"),
    Api("JSON.stringify util.inspect util.format", "stringify", "text of a value (of process.env: a dump)",
        "JSON.stringify({a: 1})"),
    Api("Object.entries Object.values", "entries", "the values of an object (of process.env: a dump)",
        "Object.entries({a: 1})"),
    Api("parseInt Number", "number", "a number from text", "parseInt('755', 8)"),
    Api("setTimeout setImmediate queueMicrotask process.nextTick Promise.resolve Promise.all Promise.allSettled "
        "Promise.race",
        "timer", "runs a function later, once", "setTimeout(() => {}, 1)"),
    Api("util.promisify util.callbackify", "identity", "the same function, called another way",
        "require('util').promisify(setTimeout)"),
    Api("setInterval", "interval", "runs a function again and again, for ever", "setInterval(() => {}, 1000)"),
    Api("JSON.parse Math.* Object.keys Object.assign Object.freeze Object.fromEntries Object.getOwnPropertyNames "
        "Object.create Array.* Number.* String String.raw Boolean Symbol Date Date.now Map Set WeakMap URL "
        "URLSearchParams RegExp Error TypeError isNaN isFinite parseFloat encodeURIComponent encodeURI escape "
        "structuredClone TextDecoder TextEncoder Buffer.alloc Buffer.concat Buffer.byteLength Buffer.isBuffer "
        "path.* os.* util.* url.* querystring.* crypto.randomUUID crypto.randomBytes crypto.createHash "
        "process.uptime process.memoryUsage process.hrtime process.hrtime.bigint process.cpuUsage process.exit "
        "process.emitWarning process.on process.stdin.on process.stdin.once process.stdin.setEncoding "
        "process.stdin.resume process.stdin.read process.stdin.pipe assert assert.* Intl.* Promise Reflect.ownKeys "
        "Reflect.has "
        "require.resolve performance.now Deno.exit Bun.version semver.*",
        "pure", "computes or inspects; changes nothing", "JSON.parse('{}')"),
)

_BY_PATH: dict[str, Api] = {p: api for api in API for p in api.paths.split()}

#: Dotted names that are other spellings of one API.
_ALIAS = {
    "process.mainModule.require": "require",
    "require.main.require": "require",
    "module.constructor._load": "require",
    "process.mainModule.constructor._load": "require",
    "module._load": "require",
    "module.Module._load": "require",
    "module.Module.createRequire": "module.createRequire",
    "buffer.Buffer": "Buffer",
    "Bun.env": "process.env",
    "Buffer.default": "Buffer",
    "process.mainModule.constructor.createRequire": "module.createRequire",
}

_GLOBAL_OBJECTS = ("global", "globalThis", "window", "self", "process.mainModule.global")

#: Module names as ``require``/``import`` spell them → the name the table uses.
_MODULES = {
    "fs/promises": "fs.promises", "fs-extra": "fs", "graceful-fs": "fs", "original-fs": "fs",
    "path/posix": "path", "path/win32": "path", "dns/promises": "dns", "timers/promises": "timers",
    "bun": "Bun", "shelljs": "shelljs", "child_process.promises": "child_process",
}

_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "fish", "csh", "tcsh", "busybox"})
_FORKING = frozenset({"shell", "argv", "spawn", "fork", "bunspawn", "denocommand", "denorun", "template_shell"})
_LIBRARY_MODULES = frozenset({"ffi-napi", "ffi", "koffi", "node-ffi", "ref-napi"})

#: Methods that compute from a value and change nothing (on unknown receivers too).
_PURE_METHODS = frozenset(
    "split join map filter forEach reduce reduceRight some every find findIndex findLast includes indexOf "
    "lastIndexOf slice substring substr charAt charCodeAt codePointAt at toLowerCase toUpperCase trim trimStart "
    "trimEnd padStart padEnd repeat replace replaceAll match matchAll search startsWith endsWith concat "
    "normalize localeCompare toString toFixed toPrecision valueOf keys values entries flat flatMap reverse sort "
    "then catch finally test exec get has toJSON toISOString getTime getFullYear push pop shift unshift "
    "toLocaleString format parse stringify".split()
)


def _module(name: str) -> str:
    name = name.removeprefix("node:")
    return _MODULES.get(name, name)


def _canon(path: str) -> str:
    """The table's name for a dotted API path (aliases and global objects peeled)."""
    for _ in range(8):
        for g in _GLOBAL_OBJECTS:
            if path.startswith(g + "."):
                path = path[len(g) + 1:]
                break
        else:
            path = _ALIAS.get(path, path)
            break
    return path


def _lookup(path: str) -> Api | None:
    found = _BY_PATH.get(path)
    if found is None and "." in path:
        found = _BY_PATH.get(path.rsplit(".", 1)[0] + ".*")
    return found


# ---------------------------------------------------------------------- scopes


class _Scope:
    """Variables of one function or block, with its enclosing scope."""

    __slots__ = ("names", "parent")

    def __init__(self, parent: _Scope | None = None) -> None:
        self.names: dict[str, V] = {}
        self.parent = parent

    def find(self, name: str) -> _Scope | None:
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.names:
                return scope
            scope = scope.parent
        return None


def _ends(node: Any) -> bool:
    """Whether a loop body can leave the loop (break, return, throw, process.exit),
    not counting functions defined inside it."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type in ("break_statement", "return_statement", "throw_statement"):
            return True
        if n.type == "call_expression" and n.text.startswith(b"process.exit"):
            return True
        if n.type in ("arrow_function", "function_expression", "function_declaration", "class_body"):
            continue
        stack.extend(n.named_children)
    return False


def _assigned(nodes: list[Any]) -> set[str]:
    """Names that assignments and ``++``/``--`` anywhere in ``nodes`` change."""
    names: set[str] = set()
    stack = [n for n in nodes if n is not None]
    while stack:
        n = stack.pop()
        target = None
        if n.type in ("assignment_expression", "augmented_assignment_expression"):
            target = n.child_by_field_name("left")
        elif n.type == "update_expression":
            target = n.child_by_field_name("argument")
        if target is not None and target.type == "identifier":
            names.add(target.text.decode())
        stack.extend(n.named_children)
    return names


def _stem(path: str) -> str:
    """``./lib/x.js`` and ``lib/x`` → ``lib/x``: a module named with or without its suffix."""
    path = posixpath.normpath(path)
    for suffix in (".js", ".mjs", ".cjs", ".ts", ".json", "/index"):
        path = path.removesuffix(suffix)
    return path


# ---------------------------------------------------------------------- reader


@dataclass
class _State:
    """What the walk has seen so far (flags are decided at the end)."""

    harmful: bool = False
    #: An effect that matters (a process, a socket, a listener, eval of computed code, a
    #: script loaded by an absolute path, a run-like call handed text): not harmless.
    matters: bool = False
    #: Paths the file calls name (written, copied, moved): a project file the program
    #: loads after changing it runs unread.
    touched: set[str] = field(default_factory=set)
    out: list[str] = field(default_factory=list)
    out_unknown: bool = False
    printed: bool = False
    has_sock: bool = False
    has_server: bool = False
    shell_spawn: bool = False
    sock_proc: bool = False
    wrote_net: bool = False
    ran: bool = False


class _Reader:
    def __init__(self, language: str) -> None:
        self.fx = ProgramEffects(language=language)
        self.st = _State()
        self.work = 0
        self.depth = 0
        self.endless = 0
        self.calls: list[Any] = []
        self.pending: list[V] = []
        self.walked: set[int] = set()
        self.returns: list[V] = []

    # ---------------------------------------------------------------- entry

    def program(self, code: str) -> bool:
        """Walk one program (or evaluated code); False when it does not parse."""
        tree = _parser().parse(code.encode("utf-8", "surrogatepass"))
        root = tree.root_node
        if root.has_error:
            return False
        self.root_scope = getattr(self, "root_scope", _Scope())
        self.block(root, self.root_scope)
        return True

    def finish(self) -> ProgramEffects:
        """Walk functions nothing called, then decide the flags."""
        while self.pending:
            fn = self.pending.pop(0)
            if id(fn.node) not in self.walked:
                self.call_user(fn, [], _NO_TAGS)
        fx, st = self.fx, self.st
        link = st.shell_spawn or st.sock_proc
        if link and st.has_server:
            fx.bind_shell = True
        elif link and st.has_sock:
            fx.reverse_shell = True
        if st.wrote_net and st.ran:
            fx.fetch_run = True
        if st.out and not st.out_unknown:
            fx.prints = "".join(st.out)
        fx.inert = not (st.harmful or fx.opaque or fx.sends or fx.fetch_run or fx.reverse_shell
                        or fx.bind_shell or fx.fork_bomb or fx.env_dump or fx.library_load)
        # Code whose effects are all harmless is harmless: calls of packages the model does
        # not know are trusted (as ``node script.js`` is); file effects are shell lines.
        stems = {_stem(m) for m in fx.modules}
        fx.harmless = not (st.matters or any(_stem(t) in stems for t in st.touched) or fx.opaque or fx.sends or fx.fetch_run or fx.reverse_shell
                           or fx.bind_shell or fx.fork_bomb or fx.env_dump or fx.library_load)
        return fx

    def tick(self) -> None:
        self.work += 1
        if self.work > MAX_WORK:
            raise _TooMuch

    # ---------------------------------------------------------------- statements

    def block(self, node: Any, scope: _Scope) -> None:
        children = node.named_children
        for child in children:  # function declarations are hoisted
            if child.type in ("function_declaration", "generator_function_declaration"):
                self.declare_function(child, scope)
        last = None
        for child in children:
            last = self.stmt(child, scope)
        if node.type == "program" and self.depth == 0 and not self.st.printed and last is not None:
            if last.kind == "str":  # node -p prints the value of the last expression
                self.st.out.append(last.text + "\n")

    def declare_function(self, node: Any, scope: _Scope) -> None:
        name = node.child_by_field_name("name")
        fn = V("fn", node=node, scope=scope)
        if name is not None:
            scope.names[name.text.decode()] = fn
        self.pending.append(fn)

    def stmt(self, node: Any, scope: _Scope) -> V | None:
        """Walk one statement; the value of an expression statement."""
        self.tick()
        t = node.type
        if t == "expression_statement":
            value = None
            for child in node.named_children:
                value = self.ev(child, scope)
            return value
        if t in ("lexical_declaration", "variable_declaration"):
            for decl in node.named_children:
                if decl.type == "variable_declarator":
                    value_node = decl.child_by_field_name("value")
                    value = self.ev(value_node, scope) if value_node is not None else UNDEFINED
                    self.bind(decl.child_by_field_name("name"), value, scope, declare=True)
        elif t in ("function_declaration", "generator_function_declaration"):
            if node.child_by_field_name("name") is None:
                self.declare_function(node, scope)
        elif t in ("class_declaration", "class"):
            self.class_body(node, scope)
        elif t == "statement_block":
            self.block(node, _Scope(scope))
        elif t == "if_statement":
            self.ev(node.child_by_field_name("condition"), scope)
            self.branch([node.child_by_field_name("consequence")], scope)
            alt = node.child_by_field_name("alternative")
            if alt is not None:
                self.branch(alt.named_children, scope)
        elif t == "switch_statement":
            self.ev(node.child_by_field_name("value"), scope)
            body = node.child_by_field_name("body")
            for case in body.named_children if body is not None else []:
                self.branch(case.named_children, scope)
        elif t in ("for_statement", "while_statement", "do_statement"):
            self.loop(node, scope)
        elif t == "for_in_statement":
            self.for_in(node, scope)
        elif t == "return_statement":
            value = UNDEFINED
            for child in node.named_children:
                value = self.ev(child, scope)
            self.returns.append(value)
        elif t == "import_statement":
            self.import_statement(node, scope)
        elif t in ("empty_statement", "comment", "hash_bang_line", "break_statement", "continue_statement",
                   "debugger_statement"):
            pass
        elif t in ("try_statement", "catch_clause", "finally_clause", "labeled_statement", "export_statement",
                   "switch_body", "switch_case", "switch_default", "else_clause",
                   "throw_statement", "with_statement"):
            for child in node.named_children:
                if child.type in ("statement_block",):
                    self.block(child, _Scope(scope))
                elif child.type in ("identifier", "statement_identifier") and t in ("catch_clause", "labeled_statement"):
                    scope.names[child.text.decode()] = ANY
                else:
                    self.stmt(child, scope)
        else:
            return self.ev(node, scope)
        return None

    def loop(self, node: Any, scope: _Scope) -> None:
        inner = _Scope(scope)
        for name in ("initializer",):
            init = node.child_by_field_name(name)
            if init is not None:
                self.stmt(init, inner)
        self.widen(node, inner)
        cond = node.child_by_field_name("condition")
        endless = False
        if cond is None or cond.type == "empty_statement":
            endless = node.type == "for_statement"
        else:
            c = self.stmt(cond, inner) if cond.type == "expression_statement" else self.ev(cond, inner)
            endless = c is not None and _truthy(c) is True
        body = node.child_by_field_name("body")
        endless = endless and body is not None and not _ends(body)
        self.endless += endless
        try:
            if body is not None:
                self.stmt(body, inner)
            inc = node.child_by_field_name("increment")
            if inc is not None:
                self.ev(inc, inner)
        finally:
            self.endless -= endless

    def branch(self, nodes: list[Any], scope: _Scope) -> None:
        """Walk code that may not run (a branch of ``if``/``switch``): inside it, values
        are as assigned there; after it, a variable it changed is unknown."""
        before: dict[str, tuple[_Scope, V]] = {}
        for name in _assigned(nodes):
            home = scope.find(name)
            if home is not None:
                before[name] = (home, home.names[name])
        for n in nodes:
            self.stmt(n, scope)
        for name, (home, old) in before.items():
            new = home.names.get(name, old)
            if not _same(old, new) and new is not old:
                home.names[name] = _any(old, new)

    def widen(self, node: Any, scope: _Scope) -> None:
        """Variables a loop assigns are unknown inside and after it (the body is walked
        once, so ``s += 'x'`` in a loop must not leave ``s == 'x'``)."""
        for name in _assigned([node]):
            home = scope.find(name)
            if home is not None:
                home.names[name] = _any(home.names[name])

    def for_in(self, node: Any, scope: _Scope) -> None:
        right = self.ev(node.child_by_field_name("right"), scope)
        left = node.child_by_field_name("left")
        body = node.child_by_field_name("body")
        of = any(c.type == "of" for c in node.children)
        if not of and right.kind == "ref" and right.text == "process.env":
            self.fx.env_dump = True
        values: list[V] = [_any(right)]
        if of and right.kind == "arr" and len(right.items) <= MAX_UNROLL:
            values = list(right.items)
        elif of and right.kind == "str" and len(right.text) <= MAX_UNROLL:
            values = [_str(c) for c in right.text]
        if len(values) == 1 and values[0].kind == "any":
            self.widen(node, scope)
        for value in values or [ANY]:
            inner = _Scope(scope)
            self.bind(left, value, inner, declare=True)
            if body is not None:
                self.stmt(body, inner)

    def import_statement(self, node: Any, scope: _Scope) -> None:
        source = node.child_by_field_name("source")
        name = self.ev(source, scope).text if source is not None else ""
        module = self.require(_str(name))
        for clause in node.named_children:
            if clause.type != "import_clause":
                continue
            for part in clause.named_children:
                if part.type == "identifier":
                    scope.names[part.text.decode()] = module
                elif part.type == "namespace_import":
                    for ident in part.named_children:
                        scope.names[ident.text.decode()] = module
                elif part.type == "named_imports":
                    for spec in part.named_children:
                        if spec.type != "import_specifier":
                            continue
                        imported = spec.child_by_field_name("name")
                        alias = spec.child_by_field_name("alias") or imported
                        key = imported.text.decode().strip("'\"")
                        scope.names[alias.text.decode()] = self.member(module, key)

    def class_body(self, node: Any, scope: _Scope) -> None:
        name = node.child_by_field_name("name")
        if name is not None:
            scope.names[name.text.decode()] = ANY
        body = node.child_by_field_name("body")
        if body is None:
            return
        for member in body.named_children:
            if member.type == "method_definition":
                self.pending.append(V("fn", node=member, scope=scope))
            else:
                for child in member.named_children:
                    self.ev(child, scope)

    # ---------------------------------------------------------------- binding

    def bind(self, target: Any, value: V, scope: _Scope, declare: bool = False) -> None:
        """Bind a name or a destructuring pattern to ``value``."""
        if target is None:
            return
        t = target.type
        if t in ("identifier", "shorthand_property_identifier_pattern"):
            name = target.text.decode()
            home = None if declare else scope.find(name)
            (home or (scope if declare else self.root_scope)).names[name] = value
        elif t == "object_pattern":
            for part in target.named_children:
                if part.type == "shorthand_property_identifier_pattern":
                    self.bind(part, self.member(value, part.text.decode()), scope, declare)
                elif part.type == "pair_pattern":
                    key = self.key(part.child_by_field_name("key"), scope)
                    sub = self.member(value, key) if key is not None else _any(value)
                    self.bind(part.child_by_field_name("value"), sub, scope, declare)
                elif part.type == "object_assignment_pattern":
                    left = part.child_by_field_name("left")
                    sub = self.member(value, left.text.decode()) if left is not None else ANY
                    if sub.kind == "any" and not sub.tags:
                        sub = self.ev(part.child_by_field_name("right"), scope)
                    self.bind(left, sub, scope, declare)
                elif part.type == "rest_pattern":
                    for child in part.named_children:
                        self.bind(child, _any(value), scope, declare)
        elif t == "array_pattern":
            for i, part in enumerate(target.named_children):
                if part.type == "rest_pattern":
                    rest = V("arr", items=value.items[i:]) if value.kind == "arr" else _any(value)
                    for child in part.named_children:
                        self.bind(child, rest, scope, declare)
                else:
                    item = value.items[i] if value.kind == "arr" and i < len(value.items) else _any(value)
                    self.bind(part, item, scope, declare)
        elif t == "assignment_pattern":
            left = target.child_by_field_name("left")
            if value.kind == "null" and value.text == "undefined":
                value = self.ev(target.child_by_field_name("right"), scope)
            self.bind(left, value, scope, declare)
        elif t in ("member_expression", "subscript_expression"):
            obj = self.ev(target.child_by_field_name("object"), scope)
            if obj.kind == "ref" and not obj.text.startswith(("module", "exports")):
                self.st.harmful = True  # process.env.X = …, globalThis.f = …
            if _tags(value) & {"sock"} and _tags(obj) & {"proc"} or _tags(value) & {"proc"} and _tags(obj) & {"sock"}:
                self.st.sock_proc = True
            if value.kind == "fn" and _tags(obj):  # ws.onmessage = m => …: called with its data
                self.call_user(value, [], _tags(obj))
        elif t == "rest_pattern":
            for child in target.named_children:
                self.bind(child, value, scope, declare)
        else:
            for child in target.named_children:
                self.ev(child, scope)

    def key(self, node: Any, scope: _Scope) -> str | None:
        """A property name: ``a`` in ``{a: 1}``, ``'a'``, ``[expr]`` when constant."""
        if node is None:
            return None
        if node.type in ("property_identifier", "identifier", "private_property_identifier",
                         "shorthand_property_identifier"):
            return str(node.text.decode())
        if node.type == "computed_property_name":
            inner = node.named_children
            return _text(self.ev(inner[0], scope)) if inner else None
        return _text(self.ev(node, scope))

    # ---------------------------------------------------------------- expressions

    def ev(self, node: Any, scope: _Scope) -> V:
        """The value of an expression; its effects are recorded on the way."""
        if node is None:
            return UNDEFINED
        self.tick()
        t = node.type
        if t == "string":
            return _str(_unescape(node.text.decode("utf-8", "replace")[1:-1]))
        if t == "template_string":
            return self.template(node, scope)[0]
        if t == "number":
            try:
                return _num(_number(node.text.decode()))
            except ValueError:
                return ANY
        if t in ("true", "false"):
            return V("bool", t)
        if t in ("null", "undefined"):
            return V("null", t)
        if t == "identifier":
            return self.name(node.text.decode(), scope)
        if t in ("member_expression", "subscript_expression"):
            obj = self.ev(node.child_by_field_name("object"), scope)
            return self.member(obj, self.prop(node, scope))
        if t == "call_expression":
            return self.call(node, scope)
        if t == "new_expression":
            callee = self.ev(node.child_by_field_name("constructor"), scope)
            args = self.arguments(node.child_by_field_name("arguments"), scope)
            return self.invoke(callee, args, None, "", new=True)
        if t == "binary_expression":
            left = self.ev(node.child_by_field_name("left"), scope)
            right = self.ev(node.child_by_field_name("right"), scope)
            op = node.child_by_field_name("operator")
            return _binop(op.text.decode() if op is not None else "", left, right)
        if t == "unary_expression":
            arg = self.ev(node.child_by_field_name("argument"), scope)
            op = node.child_by_field_name("operator")
            return _unop(op.text.decode() if op is not None else "", arg)
        if t == "update_expression":
            target = node.child_by_field_name("argument")
            value = self.ev(target, scope)
            self.bind(target, _binop("+", value, _num(1)) if value.kind == "num" else _any(value), scope)
            return ANY
        if t == "assignment_expression":
            value = self.ev(node.child_by_field_name("right"), scope)
            self.bind(node.child_by_field_name("left"), value, scope)
            return value
        if t == "augmented_assignment_expression":
            left_node = node.child_by_field_name("left")
            left = self.ev(left_node, scope)
            right = self.ev(node.child_by_field_name("right"), scope)
            op = node.child_by_field_name("operator")
            value = _binop(op.text.decode()[:-1] if op is not None else "", left, right)
            self.bind(left_node, value, scope)
            return value
        if t in ("parenthesized_expression", "await_expression", "sequence_expression", "spread_element",
                 "expression_statement", "non_null_expression"):
            value = UNDEFINED
            for child in node.named_children:
                value = self.ev(child, scope)
            if t == "await_expression" and value.kind == "promise" and value.items:
                return value.items[0]
            return value
        if t == "ternary_expression":
            cond = _truthy(self.ev(node.child_by_field_name("condition"), scope))
            a = self.ev(node.child_by_field_name("consequence"), scope)
            b = self.ev(node.child_by_field_name("alternative"), scope)
            if cond is not None:
                return a if cond else b
            return a if _same(a, b) else _any(a, b)
        if t in ("arrow_function", "function_expression", "function", "generator_function",
                 "method_definition"):
            fn = V("fn", node=node, scope=scope)
            self.pending.append(fn)
            return fn
        if t == "array":
            return V("arr", items=tuple(self.spread(node.named_children, scope)))
        if t == "object":
            return self.object(node, scope)
        if t == "class":
            self.class_body(node, scope)
            return ANY
        if t in ("regex", "this", "super", "meta_property", "comment"):
            return ANY
        if t == "import":
            return V("ref", "import")
        for child in node.named_children:
            self.stmt(child, scope)
        return ANY

    def name(self, name: str, scope: _Scope) -> V:
        home = scope.find(name)
        if home is not None:
            return home.names[name]
        if name == "__dirname":
            return _str(".")
        if name in ("undefined", "NaN", "Infinity"):
            return UNDEFINED if name == "undefined" else _num(float(name.replace("Infinity", "inf")))
        if name in ("__filename", "arguments"):
            return ANY
        return V("ref", _canon(name))

    def prop(self, node: Any, scope: _Scope) -> str | None:
        """The property a member or subscript expression reads (None when computed)."""
        if node.type == "member_expression":
            prop = node.child_by_field_name("property")
            return prop.text.decode() if prop is not None else None
        return _text(self.ev(node.child_by_field_name("index"), scope))

    def member(self, obj: V, key: str | None) -> V:
        """``obj[key]``."""
        if obj.kind == "ref":
            if obj.text == "process.env":
                if key in ("HOME", "USERPROFILE"):
                    return _str("~")
                return ANY
            if key is None:
                return V("ref", obj.text + ".?")
            if obj.text in _GLOBAL_OBJECTS or obj.text == "global":
                return self.name(key, _Scope())
            return V("ref", _canon(f"{obj.text}.{key}"))
        if key is None:
            return _any(obj)
        if obj.kind == "str":
            if key == "length":
                return _num(len(obj.text))
            if key.isdigit():
                i = int(key)
                return _str(obj.text[i]) if i < len(obj.text) else UNDEFINED
            return ANY
        if obj.kind == "glob":
            return obj if key in ("name", "path") else ANY  # a Dirent's name
        if obj.kind == "arr":
            if key == "length":
                return ANY if "listing" in obj.tags else _num(len(obj.items))
            if key.isdigit():
                i = int(key)
                return obj.items[i] if i < len(obj.items) else UNDEFINED
            return ANY
        if obj.kind == "obj":
            found = _get(obj, key)
            return found if found is not None else _any(obj)
        if obj.kind == "promise":
            return ANY
        return _any(obj)

    def template(self, node: Any, scope: _Scope) -> tuple[V, list[str], list[V]]:
        """A template literal: its value, its text parts and its substituted values."""
        parts, values = [""], []
        for child in node.named_children:
            if child.type == "template_substitution":
                value = UNDEFINED
                for inner in child.named_children:
                    value = self.ev(inner, scope)
                values.append(value)
                parts.append("")
            elif child.type == "escape_sequence":
                parts[-1] += _unescape(child.text.decode("utf-8", "replace"))
            else:
                parts[-1] += child.text.decode("utf-8", "replace")
        texts = [_text(v) for v in values]
        if all(x is not None for x in texts):
            out = parts[0]
            for text, part in zip(texts, parts[1:], strict=True):
                out += (text or "") + part
            return _str(out), parts, values
        if any(v.kind == "glob" for v in values) and all(x is not None or v.kind == "glob" for x, v in zip(texts, values, strict=True)):
            out = parts[0]
            for text, v, part in zip(texts, values, parts[1:], strict=True):
                out += (v.text if v.kind == "glob" else text or "") + part
            return V("glob", out), parts, values
        return _any(*values), parts, values

    def object(self, node: Any, scope: _Scope) -> V:
        keys: list[str] = []
        items: list[V] = []
        for part in node.named_children:
            if part.type == "pair":
                key = self.key(part.child_by_field_name("key"), scope)
                value = self.ev(part.child_by_field_name("value"), scope)
                if key is not None:
                    keys.append(key)
                    items.append(value)
            elif part.type == "shorthand_property_identifier":
                keys.append(part.text.decode())
                items.append(self.name(part.text.decode(), scope))
            elif part.type == "method_definition":
                self.pending.append(V("fn", node=part, scope=scope))
            elif part.type == "spread_element":
                spread = self.ev(part, scope)
                if spread.kind == "obj":
                    keys.extend(spread.keys)
                    items.extend(spread.items)
                else:
                    keys.append("...")
                    items.append(spread)
        return V("obj", items=tuple(items), keys=tuple(keys))

    def spread(self, nodes: list[Any], scope: _Scope) -> list[V]:
        out: list[V] = []
        for n in nodes:
            if n.type == "comment":
                continue
            value = self.ev(n, scope)
            if n.type == "spread_element":
                if value.kind == "arr":
                    out.extend(value.items)
                    continue
                if value.kind == "str" and len(value.text) <= MAX_UNROLL * 16:
                    out.extend(_str(c) for c in value.text)
                    continue
            out.append(value)
        return out

    def arguments(self, node: Any, scope: _Scope) -> list[V]:
        if node is None:
            return []
        return self.spread(node.named_children, scope)

    # ---------------------------------------------------------------- calls

    def call(self, node: Any, scope: _Scope) -> V:
        fnode = node.child_by_field_name("function")
        argnode = node.child_by_field_name("arguments")
        recv: V | None = None
        key = ""
        if fnode.type in ("member_expression", "subscript_expression"):
            recv = self.ev(fnode.child_by_field_name("object"), scope)
            prop = self.prop(fnode, scope)
            key = prop or ""
            if prop in ("call", "apply") and recv.kind in ("ref", "fn"):
                args = self.arguments(argnode, scope)
                if prop == "apply":
                    rest = args[1] if len(args) > 1 else V("arr")
                    args = list(rest.items) if rest.kind == "arr" else [rest]
                else:
                    args = args[1:]
                return self.invoke(recv, args, None, "")
            if prop == "bind" and recv.kind in ("ref", "fn"):
                self.arguments(argnode, scope)
                return recv
            callee = self.member(recv, prop)
        else:
            callee = self.ev(fnode, scope)
        if argnode is not None and argnode.type == "template_string":
            return self.tagged(callee, argnode, scope)
        args = self.arguments(argnode, scope)
        if callee.kind == "ref" and callee.text == "import":
            return self.dynamic_import(args)
        if callee.kind == "ref" and callee.text == "Reflect.apply" and len(args) >= 1:
            rest = args[2] if len(args) > 2 else V("arr")
            return self.invoke(args[0], list(rest.items) if rest.kind == "arr" else [rest], None, "")
        if callee.kind == "ref" or callee.kind == "fn" or recv is None:
            return self.invoke(callee, args, recv, key)
        return self.method(recv, key, args)

    def invoke(self, callee: V, args: list[V], recv: V | None, key: str, new: bool = False) -> V:
        if callee.kind == "fn":
            return self.call_user(callee, args, _NO_TAGS)
        if callee.kind == "ref":
            return self.api(callee.text, args, new)
        if recv is not None:
            return self.method(recv, key, args)
        return self.unknown_call(args, _tags(callee))

    def unknown_call(self, args: list[V], tags: frozenset[str], key: str = "") -> V:
        """A call bastion does not know: not inert; functions handed to it run. A package
        call is trusted as running a script is, except a run-like call handed text and a
        URL handed to it (taken to be contacted); the other texts it is handed are kept
        for the caller to check (a secret file)."""
        self.st.harmful = True
        self.library_args(args, key)
        self.callbacks(args, tags)
        return _any(tags=tags)

    def library_args(self, args: list[V], key: str) -> None:
        texts = [a.text for a in args[:32] if a.kind == "str" and len(a.text) <= 4096]
        if key in _RUN_METHODS and (texts or any(a.kind not in ("fn", "obj", "arr", "num", "null") for a in args)):
            self.st.matters = True
        if destroys(key):
            self.st.matters = True  # ``client.deleteIndex('prod')``, ``algolia.clearObjects(…)``
        for text in texts:
            if "://" in text[:16]:
                self.fx.sends.append(text)
            elif "\n" not in text and len(self.fx.handed) < 64 and text not in self.fx.handed:
                self.fx.handed.append(text)

    def callbacks(self, args: list[V], tags: frozenset[str], values: list[V] | None = None) -> V:
        """Run the functions among ``args`` with parameters that carry ``tags`` (a known
        API handed over as a callback, ``.then(eval)``, is called the same way)."""
        result = ANY
        for arg in args:
            if arg.kind == "fn":
                result = self.call_user(arg, values or [], tags)
            elif arg.kind == "ref" and _lookup(arg.text) is not None:
                result = self.api(arg.text, values or [_any(tags=tags)], False)
        return result

    def call_user(self, fn: V, args: list[V], tags: frozenset[str]) -> V:
        """Walk a function of the program with ``args`` bound to its parameters."""
        node = fn.node
        if node is None or len(self.calls) >= MAX_CALLS or node in self.calls:
            return ANY
        self.walked.add(id(node))
        scope = _Scope(fn.scope)
        params = node.child_by_field_name("parameters") or node.child_by_field_name("parameter")
        plist = [] if params is None else (params.named_children if params.type == "formal_parameters" else [params])
        default = _any(tags=tags)
        for i, param in enumerate(plist):
            if param.type == "rest_pattern":
                self.bind(param, V("arr", items=tuple(args[i:])), scope, declare=True)
                break
            self.bind(param, args[i] if i < len(args) else (default if tags else UNDEFINED if args else default),
                      scope, declare=True)
        body = node.child_by_field_name("body")
        self.calls.append(node)
        mark = len(self.returns)
        try:
            if body is None:
                return ANY
            if body.type == "statement_block":
                self.block(body, scope)
                returned = self.returns[mark:]
                return returned[-1] if len(returned) == 1 else _any(*returned)
            return self.ev(body, scope)
        finally:
            del self.returns[mark:]
            self.calls.pop()

    def method(self, recv: V, key: str, args: list[V]) -> V:
        """A method of a value (not of a known API)."""
        rtags, atags = _tags(recv), frozenset().union(*(_deep_tags(a) for a in args)) if args else _NO_TAGS
        if {"sock"} <= rtags | atags and {"proc"} <= rtags | atags and ("sock" in rtags) != ("sock" in atags):
            self.st.sock_proc = True
        if key == "pipe" and "net" in rtags and "wfile" in atags:
            self.st.wrote_net = True
        if key == "connect" and "sock" in rtags:
            self.send(args)
        if key in ("write", "end", "send") and "net" in rtags and "env" in atags:
            self.fx.env_dump = True
        if recv.kind == "promise" and recv.items:
            if key == "then":
                return self.callbacks(args, _NO_TAGS, [recv.items[0]])
            return recv
        if recv.kind in ("str", "arr", "num"):
            folded = _fold_method(recv, key, args, self)
            if folded is not None:
                return folded
        if key not in _PURE_METHODS and not rtags:
            self.st.harmful = True
            self.library_args(args, key)
        self.callbacks(args, rtags - {"env"})
        return _any(recv, tags=frozenset())

    def tagged(self, callee: V, node: Any, scope: _Scope) -> V:
        """``tag`\u2026${x}\u2026```: String.raw, Bun.$, zx, or an unknown tag."""
        value, parts, values = self.template(node, scope)
        path = callee.text if callee.kind == "ref" else ""
        if path == "String.raw":
            return value
        api = _lookup(path)
        if api is not None and api.does == "template_shell":
            words = [_text(v) for v in values]
            if any(w is None for w in words):
                return self.opaque(f"{path}`…` with a computed value", values)
            line = parts[0] + "".join(shell_word(w or "") + p for w, p in zip(words, parts[1:], strict=True))
            return self.run_shell(line, api, values)
        return self.invoke(callee, [V("arr", items=tuple(_str(p) for p in parts)), *values], None, "")

    def dynamic_import(self, args: list[V]) -> V:
        spec = args[0] if args else ANY
        if spec.kind == "str" and spec.text.startswith("data:"):
            head, _, body = spec.text.partition(",")
            code = _decode(body, "base64") if head.endswith(";base64") else unquote(body)
            self.evaluate(_str(code) if code is not None else ANY, "import() of a data: URL")
            return V("promise", items=(ANY,))
        if spec.kind == "str" and spec.text.startswith(("http://", "https://")):
            self.fx.sends.append(spec.text)
            self.fx.fetch_run = True
            return V("promise", items=(ANY,))
        return V("promise", items=(self.require(spec),))

    # ---------------------------------------------------------------- known APIs

    def api(self, path: str, args: list[V], new: bool) -> V:
        if path.endswith(".?") or ".?." in path:
            self.st.harmful = True
            base = path.split(".?")[0]
            if base in ("child_process", "fs", "fs.promises", "vm", "Bun", "Deno", "require", "process"):
                return self.opaque(f"a computed member of {base} called", args)
            return self.unknown_call(args, _NO_TAGS, path.rsplit(".", 1)[-1])
        api = _lookup(path)
        if api is None:
            return self.unknown_call(args, _NO_TAGS, path.rsplit(".", 1)[-1])
        does = api.does
        self.harmful_before, self.matters_before = self.st.harmful, self.st.matters
        if does not in HARMLESS:
            self.st.harmful = True
            self.st.matters = self.st.matters or does not in FILE_KINDS
        handler = getattr(self, f"_do_{does}")
        result: V = handler(path, api, args)
        return result

    def opaque(self, what: str, args: list[V]) -> V:
        """Something runs that bastion cannot follow."""
        tags = frozenset().union(*(_deep_tags(a) for a in args)) if args else _NO_TAGS
        if "net" in tags:
            self.fx.fetch_run = True
        if "sock" in tags:
            self.st.sock_proc = True
        if what not in self.fx.opaque:
            self.fx.opaque.append(what)
        self.st.harmful = True
        return ANY

    # processes

    def run_shell(self, line: str, api: Api, args: list[V]) -> V:
        self.process(api, args)
        self.fx.shell.append(line)
        return _any(tags=frozenset({"proc"}))

    def process(self, api: Api, args: list[V]) -> None:
        """Bookkeeping shared by every call that starts a process."""
        self.st.ran = self.st.harmful = self.st.matters = True
        tags = frozenset().union(*(_deep_tags(a) for a in args)) if args else _NO_TAGS
        if "net" in tags:
            self.fx.fetch_run = True
        if "sock" in tags:
            self.st.sock_proc = True
        if self.endless and api.does in _FORKING and not self.synchronous:
            self.fx.fork_bomb = True
        self.callbacks(args, frozenset({"proc"}))

    synchronous = False
    harmful_before = False
    matters_before = False

    def run_argv(self, path: str, api: Api, argv: list[V], args: list[V]) -> V:
        words = [_text(w) for w in argv]
        self.synchronous = "Sync" in path
        try:
            if not words or any(w is None for w in words):
                self.process(api, args)
                return self.opaque(f"{path} of a computed command", args)
            argv_s = [w or "" for w in words]
            name = posixpath.basename(argv_s[0])
            if name in _SHELLS:
                rest = argv_s[1:]
                if name == "busybox" and rest and rest[0] in _SHELLS:
                    rest = rest[1:]
                for i, word in enumerate(rest):
                    if word.startswith("-") and not word.startswith("--") and "c" in word[1:]:
                        if i + 1 < len(rest):
                            return self.run_shell(rest[i + 1], api, args)
                        break
                    if not word.startswith(("-", "+")):
                        break
                else:
                    self.st.shell_spawn = True
            return self.run_shell(shell_line(argv_s), api, args)
        finally:
            self.synchronous = False

    def _do_shell(self, path: str, api: Api, args: list[V]) -> V:
        cmd = _text(args[0]) if args else None
        self.synchronous = "Sync" in path
        if cmd is None:
            self.process(api, args)
            self.synchronous = False
            return self.opaque(f"{path} of a computed command", args)
        try:
            return self.run_shell(cmd, api, args)
        finally:
            self.synchronous = False

    def _do_argv(self, path: str, api: Api, args: list[V]) -> V:
        if not args:
            return self.opaque(f"{path} with no command", args)
        argv = [args[0]]
        if len(args) > 1 and args[1].kind == "arr":
            argv += list(args[1].items)
        if _opt(args[-1], "shell") and all(_text(a) is not None for a in argv):
            return self._shell_string(path, api, argv, args)
        return self.run_argv(path, api, argv, args)

    def _shell_string(self, path: str, api: Api, argv: list[V], args: list[V]) -> V:
        self.synchronous = "Sync" in path
        try:
            return self.run_shell(" ".join(_text(a) or "" for a in argv), api, args)
        finally:
            self.synchronous = False

    def _do_spawn(self, path: str, api: Api, args: list[V]) -> V:
        return self._do_argv(path, api, args)

    def _do_fork(self, path: str, api: Api, args: list[V]) -> V:
        argv = [_str("node"), args[0] if args else ANY]
        if len(args) > 1 and args[1].kind == "arr":
            argv += list(args[1].items)
        return self.run_argv(path, api, argv, args)

    def _do_bunspawn(self, path: str, api: Api, args: list[V]) -> V:
        first = args[0] if args else ANY
        cmd = _get(first, "cmd") if first.kind == "obj" else first
        if cmd is None or cmd.kind != "arr":
            return self.opaque(f"{path} of a computed command", args)
        return self.run_argv(path, api, list(cmd.items), args)

    def _do_template_shell(self, path: str, api: Api, args: list[V]) -> V:
        return self.opaque(f"{path} called without a template", args)

    def _do_denocommand(self, path: str, api: Api, args: list[V]) -> V:
        argv = [args[0] if args else ANY]
        opts = args[1] if len(args) > 1 else None
        more = _get(opts, "args") if opts is not None else None
        if more is not None:
            argv += list(more.items) if more.kind == "arr" else [ANY]
        return self.run_argv(path, api, argv, args)

    def _do_denorun(self, path: str, api: Api, args: list[V]) -> V:
        return self._do_bunspawn(path, api, args)

    def _do_worker(self, path: str, api: Api, args: list[V]) -> V:
        if len(args) > 1 and _opt(args[1], "eval"):
            return self.evaluate(args[0], f"{path} of computed code")
        self.st.ran = True
        return ANY

    # files

    def target(self, path: str, value: V | None, args: list[V]) -> str | None:
        """The path a file call acts on, or None (then it went to opaque)."""
        if value is not None and value.kind == "glob":
            return _glob_word(value.text)  # each entry of a listing
        text = _text(value) if value is not None else None
        if text is None or value is None or value.kind != "str":
            self.opaque(f"{path} of a computed path", args)
            return None
        self.st.touched.add(text)
        return shell_word(text)

    def _do_rm(self, path: str, api: Api, args: list[V]) -> V:
        target = self.target(path, args[0] if args else None, args)
        if target is not None:
            opts = args[1] if len(args) > 1 else None
            if _opt(opts, "recursive"):
                self.fx.shell.append(f"rm -rf -- {target}")
            else:
                self.fx.shell.append(f"rm {'-f ' if _opt(opts, 'force') else ''}-- {target}")
        self.callbacks(args, _NO_TAGS)
        return ANY

    def _do_rmdir(self, path: str, api: Api, args: list[V]) -> V:
        target = self.target(path, args[0] if args else None, args)
        if target is not None:
            recursive = _opt(args[1] if len(args) > 1 else None, "recursive")
            self.fx.shell.append(f"rm -rf -- {target}" if recursive else f"rmdir -- {target}")
        self.callbacks(args, _NO_TAGS)
        return ANY

    def _do_rmtree(self, path: str, api: Api, args: list[V]) -> V:
        paths = [a for a in args if a.kind != "obj" and a.kind != "fn"]
        if path == "shelljs.rm" and paths and (_text(paths[0]) or "").startswith("-"):
            paths = paths[1:]
        for value in paths or [ANY]:
            items = list(value.items) if value.kind == "arr" else [value]
            for item in items:
                target = self.target(path, item, args)
                if target is not None:
                    self.fx.shell.append(f"rm -rf -- {target}")
        self.callbacks(args, _NO_TAGS)
        return ANY

    def _do_unlink(self, path: str, api: Api, args: list[V]) -> V:
        target = self.target(path, args[0] if args else None, args)
        if target is not None:
            self.fx.shell.append(f"rm -f -- {target}")
        self.callbacks(args, _NO_TAGS)
        return ANY

    def write(self, path: str, args: list[V], append: bool) -> V:
        data = args[1] if len(args) > 1 else ANY
        tags = _deep_tags(data)
        if "net" in tags:
            self.st.wrote_net = True
        if "env" in tags:
            self.fx.env_dump = True
        target = self.target(path, args[0] if args else None, args)
        if target is not None:
            text = _text(data)
            word = shell_word(text) if text is not None else "'<data>'"
            self.fx.shell.append(f"printf %s {word} {'>>' if append else '>'} {target}")
        self.callbacks(args, _NO_TAGS)
        return ANY

    def _do_write(self, path: str, api: Api, args: list[V]) -> V:
        opts = args[2] if len(args) > 2 else None
        flag = _get(opts, "flag") if opts is not None else None
        append = _opt(opts, "append") or (flag is not None and _text(flag) in ("a", "a+", "as", "as+"))
        return self.write(path, args, append)

    def _do_append(self, path: str, api: Api, args: list[V]) -> V:
        return self.write(path, args, True)

    def _do_wstream(self, path: str, api: Api, args: list[V]) -> V:
        opts = args[1] if len(args) > 1 else None
        flags = _get(opts, "flags") if opts is not None else None
        self.write(path, [args[0] if args else ANY, ANY], flags is not None and (_text(flags) or "").startswith("a"))
        return _any(tags=frozenset({"wfile"}))

    def _do_read(self, path: str, api: Api, args: list[V]) -> V:
        text = _text(args[0]) if args and args[0].kind == "str" else None  # a number is a descriptor
        if text is not None:
            self.fx.shell.append(f"cat -- {shell_word(text)}")
        self.callbacks(args, _NO_TAGS)
        return ANY

    def _do_list(self, path: str, api: Api, args: list[V]) -> V:
        """A directory's entries: one value standing for each name (a loop over them
        runs once, with the name as a pattern)."""
        text = _text(args[0]) if args else None
        if text is not None:
            self.fx.shell.append(f"ls -- {shell_word(text)}")
        self.callbacks(args, _NO_TAGS)
        entries = V("arr", items=(V("glob", "*"),), tags=frozenset({"listing"}))
        return V("promise", items=(entries,)) if ".promises." in f".{path}." else entries

    def _do_chmod(self, path: str, api: Api, args: list[V]) -> V:
        target = self.target(path, args[0] if args else None, args)
        mode = args[1] if len(args) > 1 else ANY
        if target is not None:
            word = format(int(mode.num), "o") if mode.kind == "num" else _text(mode)
            if word is None:
                self.opaque(f"{path} to a computed mode", args)
            else:
                self.fx.shell.append(f"chmod {shell_word(word)} -- {target}")
        self.callbacks(args, _NO_TAGS)
        return ANY

    def _do_chown(self, path: str, api: Api, args: list[V]) -> V:
        target = self.target(path, args[0] if args else None, args)
        uid = _text(args[1]) if len(args) > 1 else None
        gid = _text(args[2]) if len(args) > 2 else None
        if target is not None:
            owner = f"{uid if uid is not None else '?'}:{gid if gid is not None else '?'}"
            self.fx.shell.append(f"chown {shell_word(owner)} -- {target}")
        self.callbacks(args, _NO_TAGS)
        return ANY

    def two_paths(self, path: str, command: str, args: list[V]) -> V:
        first = self.target(path, args[0] if args else None, args)
        second = self.target(path, args[1] if len(args) > 1 else None, args)
        if first is not None and second is not None:
            self.fx.shell.append(f"{command} -- {first} {second}")
        self.callbacks(args, _NO_TAGS)
        return ANY

    def _do_symlink(self, path: str, api: Api, args: list[V]) -> V:
        return self.two_paths(path, "ln -s", args)

    def _do_link(self, path: str, api: Api, args: list[V]) -> V:
        return self.two_paths(path, "ln", args)

    def _do_rename(self, path: str, api: Api, args: list[V]) -> V:
        return self.two_paths(path, "mv", args)

    def _do_copy(self, path: str, api: Api, args: list[V]) -> V:
        return self.two_paths(path, "cp", args)

    def _do_cpdir(self, path: str, api: Api, args: list[V]) -> V:
        recursive = _opt(args[2] if len(args) > 2 else None, "recursive") or not path.startswith("fs.cp")
        return self.two_paths(path, "cp -r" if recursive else "cp", args)

    def _do_mkdir(self, path: str, api: Api, args: list[V]) -> V:
        target = self.target(path, args[0] if args else None, args)
        if target is not None:
            self.fx.shell.append(f"mkdir -p -- {target}")
        self.callbacks(args, _NO_TAGS)
        return ANY

    def _do_truncate(self, path: str, api: Api, args: list[V]) -> V:
        target = self.target(path, args[0] if args else None, args)
        if target is not None:
            self.fx.shell.append(f"truncate -s 0 -- {target}")
        return ANY

    # code

    def evaluate(self, code: V, what: str) -> V:
        """Code handed to the language's own eval: read again, or opaque."""
        text = _text(code) if code.kind == "str" else None
        if text is None or self.depth >= MAX_DEPTH:
            return self.opaque(what, [code])
        self.depth += 1
        try:
            if not self.program(text):
                return self.opaque(f"{what}: code bastion cannot parse", [code])
        finally:
            self.depth -= 1
        return ANY

    def function(self, body: V, path: str) -> V:
        """``new Function(body)``: a function of the program whose body is ``body``."""
        text = _text(body) if body.kind == "str" else None
        if text is None or self.depth >= MAX_DEPTH:
            self.opaque(f"{path} of computed code", [body])
            return V("ref", "eval")
        tree = _parser().parse(f"(function () {{\n{text}\n}})".encode("utf-8", "surrogatepass"))
        if tree.root_node.has_error:
            self.opaque(f"{path}: code bastion cannot parse", [body])
            return V("ref", "eval")
        node = tree.root_node.named_children[0].named_children[0].named_children[0]
        fn = V("fn", node=node, scope=self.root_scope, items=(V("any", node=tree),))
        self.pending.append(fn)
        return fn

    def _do_eval(self, path: str, api: Api, args: list[V]) -> V:
        code = args[-1] if path == "Function" and args else args[0] if args else UNDEFINED
        if path in ("Function", "vm.compileFunction"):
            return self.function(code, path)
        if code.kind == "str" and path != "vm.Script":
            self.st.harmful = self.harmful_before  # constant code is judged by what it does
            self.st.matters = self.matters_before
        result = self.evaluate(code, f"{path} of computed code")
        if path == "vm.Script":
            return V("obj")
        return result

    def _do_library(self, path: str, api: Api, args: list[V]) -> V:
        self.fx.library_load = True
        if path.startswith("process."):
            self.opaque(f"{path}: node's internal bindings", args)
        return ANY

    # network

    def send(self, args: list[V]) -> None:
        host = None
        for a in args:
            if a.kind == "str":
                host = a.text
            elif a.kind == "obj":
                found = _get(a, "host") or _get(a, "hostname") or _get(a, "url")
                host = _text(found) if found is not None else host
        self.fx.sends.append(host if host else "(computed address)")

    def _do_connect(self, path: str, api: Api, args: list[V]) -> V:
        self.st.has_sock = True
        self.send(args)
        self.callbacks(args, frozenset({"sock"}))
        return _any(tags=frozenset({"sock"}))

    def _do_socket(self, path: str, api: Api, args: list[V]) -> V:
        self.st.has_sock = True
        return _any(tags=frozenset({"sock"}))

    def _do_server(self, path: str, api: Api, args: list[V]) -> V:
        self.st.has_server = True
        self.st.has_sock = True
        self.callbacks(args, frozenset({"sock"}))
        return _any(tags=frozenset({"server"}))

    def _do_fetch(self, path: str, api: Api, args: list[V]) -> V:
        self.send(args[:1] or [ANY])
        if any("env" in _deep_tags(a) for a in args):
            self.fx.env_dump = True
        tags = frozenset({"net", "sock"} if path in ("WebSocket", "ws") else {"net"})
        self.st.has_sock = self.st.has_sock or "sock" in tags
        self.callbacks(args, tags)
        return _any(tags=tags)

    # output

    def _do_print(self, path: str, api: Api, args: list[V]) -> V:
        return self.print(args, " ", "\n")

    def _do_write_out(self, path: str, api: Api, args: list[V]) -> V:
        return self.print(args[:1], "", "")

    def print(self, args: list[V], sep: str, end: str) -> V:
        self.st.printed = True
        if any("env" in _deep_tags(a) for a in args):
            self.fx.env_dump = True
        texts = [_text(a) if a.kind != "arr" else None for a in args]
        if any(t is None for t in texts):
            self.st.out_unknown = True
        else:
            self.st.out.append(sep.join(t or "" for t in texts) + end)
        return UNDEFINED

    def _do_log(self, path: str, api: Api, args: list[V]) -> V:
        if any("env" in _deep_tags(a) for a in args):
            self.fx.env_dump = True
        return UNDEFINED

    # harmless computation

    def require(self, spec: V) -> V:
        name = _text(spec) if spec.kind == "str" else None
        if name is None:
            return self.opaque("require of a computed module name", [spec])
        if name.startswith((".", "/")):
            if name.endswith(".node"):
                self.fx.library_load = True
            elif not name.endswith(".json"):
                self.st.harmful = self.st.ran = True  # a local script runs its own code
                if name.startswith("/"):
                    self.st.matters = True
                elif name not in self.fx.modules:  # a project file: read where it is (``checks.code``)
                    self.fx.modules.append(name)
            return ANY
        module = _module(name)
        if module in _LIBRARY_MODULES:
            self.fx.library_load = True
        return V("ref", module)

    def _do_require(self, path: str, api: Api, args: list[V]) -> V:
        return self.require(args[0] if args else ANY)

    def _do_createrequire(self, path: str, api: Api, args: list[V]) -> V:
        return V("ref", "require")

    def _do_builtin(self, path: str, api: Api, args: list[V]) -> V:
        return self.require(args[0] if args else ANY)

    def _do_home(self, path: str, api: Api, args: list[V]) -> V:
        return _str("~")

    def _do_getenv(self, path: str, api: Api, args: list[V]) -> V:
        return self.member(V("ref", "process.env"), _text(args[0]) if args else None)

    def _do_userinfo(self, path: str, api: Api, args: list[V]) -> V:
        return V("obj", items=(_str("~"),), keys=("homedir",))

    def _do_tmp(self, path: str, api: Api, args: list[V]) -> V:
        return _str("/tmp")

    def _do_cwd(self, path: str, api: Api, args: list[V]) -> V:
        return _str(".")

    def _do_path(self, path: str, api: Api, args: list[V]) -> V:
        if any(a.kind == "glob" for a in args) and path.rsplit(".", 1)[1] in ("join", "resolve"):
            pieces = [a.text if a.kind == "glob" else _text(a) for a in args]
            if all(x is not None for x in pieces):
                return V("glob", posixpath.normpath("/".join(x for x in pieces if x)))
            return ANY
        texts = [_text(a) for a in args]
        if any(t is None for t in texts) or not texts:
            return ANY
        parts = [t or "" for t in texts]
        op = path.rsplit(".", 1)[1]
        if op == "join":
            joined = "/".join(p for p in parts if p)
            return _str(posixpath.normpath(joined) if joined else ".")
        if op == "resolve":
            out = "."
            for p in parts:
                out = posixpath.join(out, p) if p else out
            return _str(posixpath.normpath(out))
        if op == "normalize":
            return _str(posixpath.normpath(parts[0]))
        if op == "dirname":
            return _str(posixpath.dirname(parts[0].rstrip("/")) or ".")
        return _str(posixpath.basename(parts[0].rstrip("/")))

    def _do_fromcharcode(self, path: str, api: Api, args: list[V]) -> V:
        if not all(a.kind == "num" for a in args) or len(args) > MAX_DECODED:
            return ANY
        limit = 0xFFFF if path.endswith("CharCode") else 0x10FFFF
        return _str("".join(chr(int(a.num) & limit if limit == 0xFFFF else int(a.num) % 0x110000) for a in args))

    def _do_buffer(self, path: str, api: Api, args: list[V]) -> V:
        first = args[0] if args else ANY
        if first.kind == "arr" and all(i.kind == "num" for i in first.items):
            return _str(_bytes_text(bytes(int(i.num) & 0xFF for i in first.items)))
        text = _text(first) if first.kind == "str" else None
        enc = _text(args[1]) if len(args) > 1 else "utf8"
        if text is None or enc is None:
            return _any(first)
        decoded = _decode(text, enc)
        return _str(decoded) if decoded is not None else ANY

    def _do_atob(self, path: str, api: Api, args: list[V]) -> V:
        text = _text(args[0]) if args else None
        decoded = _decode(text, "base64") if text is not None else None
        return _str(decoded) if decoded is not None else _any(*args)

    def _do_btoa(self, path: str, api: Api, args: list[V]) -> V:
        text = _text(args[0]) if args else None
        return _str(_encode(text, "base64") or "") if text is not None else _any(*args)

    def _do_uri(self, path: str, api: Api, args: list[V]) -> V:
        text = _text(args[0]) if args else None
        return _str(unquote(text)) if text is not None else _any(*args)

    def _do_stringify(self, path: str, api: Api, args: list[V]) -> V:
        first = args[0] if args else UNDEFINED
        if "env" in _deep_tags(first):
            self.fx.env_dump = True
            return _any(tags=frozenset({"env"}))
        if path == "JSON.stringify" and _const(first):
            return _str(json.dumps(first.text if first.kind == "str" else None, ensure_ascii=False)
                        if first.kind in ("str", "null") else _text(first) or "")
        return _any(*args)

    def _do_entries(self, path: str, api: Api, args: list[V]) -> V:
        if args and "env" in _deep_tags(args[0]):
            self.fx.env_dump = True
            return _any(tags=frozenset({"env"}))
        return _any(*args)

    def _do_number(self, path: str, api: Api, args: list[V]) -> V:
        text = _text(args[0]) if args else None
        base = int(args[1].num) if len(args) > 1 and args[1].kind == "num" else 10
        try:
            return _num(float(int(text.strip(), base))) if text is not None else ANY
        except ValueError:
            return ANY

    def _do_timer(self, path: str, api: Api, args: list[V]) -> V:
        if args and args[0].kind == "str" and path == "setTimeout":
            self.evaluate(args[0], "setTimeout of a string")
        self.callbacks(args, _NO_TAGS)
        return ANY

    def _do_interval(self, path: str, api: Api, args: list[V]) -> V:
        delay = args[1] if len(args) > 1 else _num(0)
        if not (delay.kind == "num" and delay.num < 100) and delay.kind != "null":
            self.callbacks(args, _NO_TAGS)  # a poller, not a fork loop
            return ANY
        self.endless += 1
        try:
            self.callbacks(args, _NO_TAGS)
        finally:
            self.endless -= 1
        return ANY

    def _do_identity(self, path: str, api: Api, args: list[V]) -> V:
        return args[0] if args else ANY

    def _do_pure(self, path: str, api: Api, args: list[V]) -> V:
        if path == "String" and args:
            text = _text(args[0])
            return _str(text) if text is not None else _any(args[0])
        self.callbacks(args, _NO_TAGS)
        return _any(*args)


def _same(a: V, b: V) -> bool:
    return a.kind == b.kind and a.text == b.text and a.num == b.num and a.kind in ("str", "num", "bool", "null", "ref")


def _binop(op: str, left: V, right: V) -> V:
    if op == "+":
        if "glob" in (left.kind, right.kind) and {left.kind, right.kind} <= {"glob", "str"}:
            return V("glob", (left.text if left.kind == "glob" else _text(left) or "")
                     + (right.text if right.kind == "glob" else _text(right) or ""))
        if left.kind == "str" or right.kind == "str":
            ltext, rtext = _text(left), _text(right)
            return _str(ltext + rtext) if ltext is not None and rtext is not None else _any(left, right)
        if left.kind == "num" and right.kind == "num":
            return _num(left.num + right.num)
        return _any(left, right)
    if op in ("||", "??", "&&"):
        truth = _truthy(left)
        if op == "??":
            return right if left.kind == "null" else left if left.kind != "any" else _any(left, right)
        if truth is None:
            return left if _same(left, right) else _any(left, right)
        return (left if truth else right) if op == "||" else (right if truth else left)
    if left.kind == "num" and right.kind == "num":
        a, b = left.num, right.num
        try:
            if op == "-":
                return _num(a - b)
            if op == "*":
                return _num(a * b)
            if op == "/" and b:
                return _num(a / b)
            if op == "%" and b:
                return _num(float(int(a) % int(b)))
            if op in ("^", "|", "&", "<<", ">>"):
                x, y = int(a), int(b)
                return _num(float({"^": x ^ y, "|": x | y, "&": x & y,
                                   "<<": (x << (y & 31)) & 0xFFFFFFFF, ">>": x >> (y & 31)}[op]))
        except (OverflowError, ValueError):
            return ANY
    return _any(left, right)


def _glob_word(pattern: str) -> str:
    """``pattern`` as one shell word whose ``*``, ``?`` and leading ``~`` stay live."""
    return "".join(ch if ch.isalnum() or ch in "*?/._-~" else shell_word(ch) for ch in pattern)


def _unop(op: str, arg: V) -> V:
    if op == "!":
        truth = _truthy(arg)
        return V("bool", "false" if truth else "true") if truth is not None else ANY
    if op == "-" and arg.kind == "num":
        return _num(-arg.num)
    if op == "void":
        return UNDEFINED
    return _any(arg) if op not in ("typeof", "delete") else ANY


def _fold_method(recv: V, key: str, args: list[V], reader: _Reader) -> V | None:
    """Methods of constant strings, arrays and numbers; None when not folded."""
    texts = [_text(a) for a in args]
    if recv.kind == "num":
        if key == "toString":
            base = int(args[0].num) if args and args[0].kind == "num" else 10
            if base == 10:
                return _str(_num_text(recv.num))
            if recv.num == int(recv.num) and 2 <= base <= 36:
                n, digits, out = int(abs(recv.num)), "0123456789abcdefghijklmnopqrstuvwxyz", ""
                while True:
                    n, r = divmod(n, base)
                    out = digits[r] + out
                    if not n:
                        break
                return _str(("-" if recv.num < 0 else "") + out)
        return None
    if recv.kind == "str":
        s = recv.text
        a0 = texts[0] if texts else None
        if key == "split":
            if not args:
                return V("arr", items=(recv,))
            if a0 is None or len(s) > MAX_DECODED:
                return None
            pieces = list(s) if a0 == "" else s.split(a0)
            return V("arr", items=tuple(_str(p) for p in pieces))
        if key in ("toString", "valueOf", "normalize") and not args:
            return recv
        if key == "toString" and a0 is not None:
            encoded = _encode(s, a0)
            return _str(encoded) if encoded is not None else None
        if key in ("toLowerCase", "toLocaleLowerCase"):
            return _str(s.lower())
        if key in ("toUpperCase", "toLocaleUpperCase"):
            return _str(s.upper())
        if key in ("trim", "trimStart", "trimEnd"):
            return _str({"trim": s.strip, "trimStart": s.lstrip, "trimEnd": s.rstrip}[key]())
        if key in ("replace", "replaceAll") and len(texts) == 2 and None not in texts and args[0].kind == "str":
            old, new = texts[0] or "", texts[1] or ""
            return _str(s.replace(old, new) if key == "replaceAll" else s.replace(old, new, 1))
        if key in ("slice", "substring", "substr") and all(a.kind == "num" for a in args):
            nums = [int(a.num) for a in args]
            if key == "substr":
                start = nums[0] if nums else 0
                start = max(len(s) + start, 0) if start < 0 else start
                return _str(s[start:start + nums[1]] if len(nums) > 1 else s[start:])
            if key == "substring":
                nums = [max(n, 0) for n in nums]
                if len(nums) == 2 and nums[0] > nums[1]:
                    nums.reverse()
            return _str(s[slice(*nums)])
        if key == "charAt" and args and args[0].kind == "num":
            i = int(args[0].num)
            return _str(s[i] if 0 <= i < len(s) else "")
        if key == "charCodeAt":
            i = int(args[0].num) if args and args[0].kind == "num" else 0
            return _num(float(ord(s[i]))) if 0 <= i < len(s) else ANY
        if key == "concat" and None not in texts:
            return _str(s + "".join(t or "" for t in texts))
        if key == "repeat" and args and args[0].kind == "num" and len(s) * max(int(args[0].num), 0) <= MAX_DECODED:
            return _str(s * max(int(args[0].num), 0))
        if key == "at" and args and args[0].kind == "num":
            i = int(args[0].num)
            return _str(s[i]) if -len(s) <= i < len(s) else UNDEFINED
        if key in _PURE_METHODS:
            reader.callbacks(args, _NO_TAGS)
            return ANY
        return None
    # arrays
    items = recv.items
    if key == "join":
        sep = texts[0] if args else ","
        parts = [("" if i.kind == "null" else _text(i)) for i in items]
        if sep is None or any(p is None for p in parts):
            return _any(recv)
        return _str(sep.join(p or "" for p in parts))
    if key in ("reverse", "toReversed"):
        return V("arr", items=tuple(reversed(items)))
    if key == "concat":
        joined: list[V] = []
        for a in args:
            joined.extend(a.items if a.kind == "arr" else (a,))
        return V("arr", items=items + tuple(joined))
    if key == "slice" and all(a.kind == "num" for a in args):
        return V("arr", items=items[slice(*(int(a.num) for a in args))])
    if key in ("map", "forEach", "filter", "flatMap") and args and args[0].kind in ("fn", "ref"):
        if len(items) > MAX_UNROLL:
            reader.callbacks(args, _NO_TAGS)
            return _any(recv)
        mapped = [reader.callbacks(args[:1], _NO_TAGS, [item, _num(i), recv]) for i, item in enumerate(items)]
        if key == "map":
            return V("arr", items=tuple(mapped))
        return ANY if key == "filter" else UNDEFINED
    if key == "toString":
        text = _text(recv)
        return _str(text) if text is not None else None
    if key in _PURE_METHODS:
        reader.callbacks(args, _NO_TAGS)
        return _any(recv)
    return None


def read(code: str, language: str) -> ProgramEffects | None:
    """The effects of the JavaScript program ``code``, or None when it cannot be read
    (a syntax error, TypeScript syntax, too much work, anything unexpected)."""
    if len(code) > MAX_SOURCE:
        return None
    try:
        reader = _Reader(language)
        if not reader.program(code):
            return None
        return reader.finish()
    except Exception:  # fail closed: the caller falls back to the scan, which asks
        return None
