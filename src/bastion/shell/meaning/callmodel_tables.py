"""The call tables of ``callmodel``: per language, the calls that run processes, delete
trees, write files, open sockets, fetch URLs or evaluate code (one record each, with its
why and examples), the names known to be harmless, and the decoders of fixed text.

A row's ``name`` is a regex matched against the whole call name (``::`` and ``->`` read
as ``.``; a method is also tried as ``.name``). ``kind`` is what the call does; the
walker in ``callmodel`` has one handler per kind (``k_<kind>``). ``arg`` refines how its
arguments are read (``first``: only the first; ``drop=3``: an argv without the 3 words
after the program; ``text,path``: the order of a write's arguments; …).
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass

from ..syntax.lazyre import LazyPattern
from ..syntax.quoting import quote as shell_quote
from .effects import Rule

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

__all__ = ["Call", "Syntax", "FILTER_MARKS", "TABLES", "HARMLESS", "DECODERS", "FAMILIES", "LANGUAGES", "EXTRA_HOME", "ASSIGN"]


@dataclass(frozen=True)
class Call:
    """One call pattern: the name regex, what it does, why, and example programs."""

    name: str
    kind: str
    why: str
    match: tuple[str, ...] = ()
    not_match: tuple[str, ...] = ()
    arg: str = ""
    #: Takes its arguments without parentheses, up to the end of the statement.
    bare: bool = False


@dataclass(frozen=True)
class Syntax:
    """How one family of languages spells strings, names, comments and concatenation."""

    name: str = r"[A-Za-z_]\w*"
    line_comments: tuple[str, ...] = ("#",)
    block_comments: tuple[tuple[str, str], ...] = ()
    interp: str = ""  # perl | ruby | php | julia: how "…" interpolates
    sq: str = "raw"  # raw | escape | char | "" (no single-quoted strings)
    backtick: str = ""  # run | cmd | name
    sigils: str = ""
    nl: bool = True  # a newline ends a statement
    regex: bool = False
    perl: bool = False
    pct: bool = False
    sym: bool = False
    long_brackets: bool = False
    php_tags: bool = False
    field_dollar: bool = False
    concat: tuple[str, ...] = ()
    juxtapose: bool = False
    bare: bool = False  # calls take arguments without parentheses
    bare_vars: bool = False  # a name not followed by "(" is a variable read
    stop_words: frozenset[str] = frozenset()
    bare_stops: tuple[str, ...] = ()
    arg_seps: tuple[str, ...] = (",",)
    declare: frozenset[str] = frozenset()
    env_whole: frozenset[str] = frozenset()


#: Variables and bare calls of the implicit input loop (``perl -n/-p``, ``ruby -n/-p``):
#: such a program filters the lines of the files named after it, and with ``-i`` (which
#: the model does not see) it rewrites those files, so it is never inert on its own.
FILTER_MARKS: dict[str, frozenset[str]] = {
    "perl": frozenset({"$_", "@F", "$."}),
    "ruby": frozenset({"$_", "$F", "gsub!", "sub!", "chomp!", "chop!"}),
}

#: Assignment operators (``=`` binds a value; the others make it unknown).
ASSIGN = frozenset({"=", "<-", ":=", ".=", "+=", "-=", "*=", "/=", "||=", "&&=", "//=", "**="})

_MODIFIERS = frozenset("if unless while until for foreach or and xor".split())

FAMILIES: dict[str, Syntax] = {
    "perl": Syntax(
        name=r"[A-Za-z_]\w*(?:::\w+)*", interp="perl", backtick="run", sigils="$@%&", nl=False, regex=True, perl=True,
        concat=(".",), bare=True, stop_words=_MODIFIERS, bare_stops=("||", "&&"), arg_seps=(",", "=>"),
        declare=frozenset({"use", "no", "require", "sub", "package"}), env_whole=frozenset({"%ENV"}),
    ),
    "ruby": Syntax(
        name=r"[A-Za-z_]\w*(?:(?:::|\.)[A-Za-z_]\w*)*[?!]?", interp="ruby", backtick="run", sigils="$@", regex=True, pct=True, sym=True,
        concat=("+", "<<"), bare=True, stop_words=_MODIFIERS | {"do", "then", "rescue"}, bare_stops=("||", "&&", "{"),
        declare=frozenset({"def", "class", "module"}),
    ),
    "php": Syntax(
        name=r"[A-Za-z_\\]\w*(?:\\\w+)*", line_comments=("#", "//"), block_comments=(("/*", "*/"),), interp="php", backtick="run", sigils="$",
        nl=False, php_tags=True, concat=(".",), bare=False, stop_words=frozenset({"or", "and", "as"}),
        declare=frozenset({"function", "use", "namespace", "class", "new"}), env_whole=frozenset({"$_ENV", "$_SERVER", "$GLOBALS"}),
    ),
    "lua": Syntax(
        name=r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*", line_comments=("--",), block_comments=(("--[[", "]]"), ("--[=[", "]=]")), sq="escape",
        nl=False, long_brackets=True, concat=("..",), bare_vars=True, declare=frozenset({"function", "local"}),
    ),
    "awk": Syntax(sq="", regex=True, field_dollar=True, juxtapose=True, bare_vars=True, stop_words=frozenset({"if", "while", "for"}), declare=frozenset({"function", "func"})),
    "r": Syntax(
        name=r"[A-Za-z.][\w.]*(?:::[A-Za-z.][\w.]*)?", sq="escape", backtick="name", bare_vars=True, declare=frozenset({"library", "require"}),
    ),
    "julia": Syntax(
        name=r"@?[A-Za-z_]\w*!?(?:\.[A-Za-z_]\w*!?)*", block_comments=(("#=", "=#"),), interp="julia", sq="char", backtick="cmd",
        concat=("*",), bare_vars=True, arg_seps=(",", ";"), declare=frozenset({"using", "import", "function", "macro"}),
    ),
    "applescript": Syntax(
        line_comments=("--", "#"), block_comments=(("(*", "*)"),), sq="", concat=("&",), bare=True,
        stop_words=frozenset({"with", "without", "as", "user", "password", "administrator", "altering"}),
    ),
    "tcl": Syntax(),
    "elisp": Syntax(),
}

#: Interpreter name (as the catalog spells it) → family.
LANGUAGES: dict[str, str] = {
    "perl": "perl",
    "ruby": "ruby", "irb": "ruby",
    "php": "php", "php-cgi": "php",
    "lua": "lua", "luajit": "lua",
    "awk": "awk", "gawk": "awk", "mawk": "awk", "nawk": "awk", "busybox-awk": "awk", "goawk": "awk",
    "rscript": "r", "r": "r", "Rscript": "r", "R": "r",
    "julia": "julia",
    "tclsh": "tcl", "wish": "tcl", "expect": "tcl",
    "osascript": "applescript",
    "emacs": "elisp",
}

#: Home-directory spellings of the languages that ``effects.HOME_SPELLINGS`` does not
#: cover (perl, ruby, php, python and node are there and used as they are).
EXTRA_HOME: tuple[Rule, ...] = (
    Rule(r"\bSys\.getenv\s*\(\s*[\"']HOME[\"']\s*\)", "R: Sys.getenv('HOME')", ("Sys.getenv(\"HOME\")",)),
    Rule(r"\bENVIRON\s*\[\s*\"HOME\"\s*\]", "awk: ENVIRON[\"HOME\"]", ("ENVIRON[\"HOME\"]",)),
    Rule(r"\bhomedir\s*\(\s*\)|\bENV\s*\[\s*\"HOME\"\s*\]", "julia: homedir(), ENV[\"HOME\"]", ("homedir()",)),
    Rule(r"\$(?:::)?env\(HOME\)|\[\s*file\s+normalize\s+~\s*\]", "tcl: $env(HOME), $::env(HOME)", ("$env(HOME)", "$::env(HOME)")),
    Rule(r"\(\s*(?:getenv\s+\"HOME\"|expand-file-name\s+\"~/?\")\s*\)", "emacs lisp: (getenv \"HOME\"), (expand-file-name \"~\")", ("(getenv \"HOME\")",)),
    Rule(r"POSIX\s+path\s+of\s+\(?\s*path\s+to\s+home\s+folder\s*\)?", "applescript: POSIX path of (path to home folder)", ("POSIX path of (path to home folder)",)),
)

# ----------------------------------------------------------------------- decoders

#: What a hex decoder skips (blanks, ``\\x``, ``0x``); blanks; a C-style octal number.
_HEX_NOISE = LazyPattern(r"\s|\\x|0x")
_BLANKS = LazyPattern(r"\s")
_LEADING_ZERO = LazyPattern(r"0\d+")


def _s(v: Any) -> str:
    if isinstance(v, str):
        return v
    raise TypeError("not a known string")


def _hex(v: Any) -> str:
    return bytes.fromhex(_HEX_NOISE.sub("", _s(v))).decode("utf-8")


def _b64(v: Any) -> str:
    import base64  # here: it imports re, and most programs decode nothing

    text = _BLANKS.sub("", _s(v))
    return base64.b64decode(text + "=" * (-len(text) % 4), validate=False).decode("utf-8")


def _chars(values: list[Any]) -> str:
    out = []
    for v in values:
        if isinstance(v, list):
            out.append(_chars(v))
        else:
            out.append(chr(int(_s(v), 0) if not _LEADING_ZERO.fullmatch(_s(v)) else int(_s(v), 8)))
    return "".join(out)


def _pack(fmt: Any, values: list[Any]) -> str:
    """perl/ruby ``pack``: hex (``H*``), characters (``C*``/``c*``/``U*``), text (``A*``)."""
    f = _s(fmt).replace(" ", "")
    if f.startswith("H"):
        return _hex("".join(_s(v) for v in values))
    if f.startswith("h"):
        h = "".join(_s(v) for v in values)
        return _hex("".join(h[i + 1 : i + 2] + h[i] for i in range(0, len(h), 2)))
    if f[:1] in "cCUW":
        return _chars(values)
    if f[:1] in "aAZ":
        return "".join(_s(v) for v in values)
    if f.startswith("m"):
        return _b64(values[0])
    raise ValueError(f)


def _unpack(fmt: Any, v: Any) -> list[str]:
    f = _s(fmt)
    if f.startswith("m"):
        return [_b64(v)]
    if f.startswith("H"):
        return [_hex(v)]
    raise ValueError(f)


def _rot13(v: Any) -> str:
    return codecs.encode(_s(v), "rot13")


def _rev(v: Any) -> Any:
    return v[::-1] if isinstance(v, (str, list)) else _s(v)


def _join(values: Any, sep: Any = "") -> str:
    return _s(sep).join(_s(x) for x in values)


def _tr(v: Any, a: Any, b: Any) -> str:
    if (_s(a), _s(b)) in (("A-Za-z", "N-ZA-Mn-za-m"), ("a-zA-Z", "n-za-mN-ZA-M")):
        return _rot13(v)
    raise ValueError("tr")


def _paste(args: list[Any], kw: dict[str, Any], sep: str) -> str:
    if "collapse" in kw and len(args) == 1 and isinstance(args[0], list):
        return _join(args[0], kw["collapse"])
    return _s(kw.get("sep", sep)).join(_s(a) if not isinstance(a, list) or len(a) != 1 else _s(a[0]) for a in args)


def _format(args: list[Any]) -> str:
    from .callmodel_values import cformat

    text = cformat(args[0], list(args[1:]))
    return _s(text)


def _same(v: Any) -> Any:
    if isinstance(v, (str, list)):
        return v
    raise TypeError


if TYPE_CHECKING:
    Decoder = Callable[[list[Any], dict[str, Any]], Any]


def _d(fn: Callable[..., Any]) -> Decoder:
    """A decoder from a function of its positional arguments."""
    return lambda args, kw: fn(*args)


def _const(text: str) -> Decoder:
    return lambda args, kw: text


DECODERS: dict[str, dict[str, Decoder]] = {
    "perl": {
        "pack": lambda a, kw: _pack(a[0], a[1:]), "unpack": lambda a, kw: _unpack(a[0], a[1])[0],
        "decode_base64": _d(_b64), "MIME.Base64.decode_base64": _d(_b64), "reverse": lambda a, kw: _rev(a[0]) if len(a) == 1 else a[::-1],
        "scalar": _d(_same), "chr": _d(lambda v: _chars([v])), "join": lambda a, kw: _join(_flat(a[1:]), a[0]),
        "sprintf": lambda a, kw: _format(a), "lc": _d(lambda v: _s(v).lower()), "uc": _d(lambda v: _s(v).upper()),
        "hex": _d(lambda v: str(int(_s(v), 16))), "oct": _d(lambda v: str(int(_s(v), 8))),
    },
    "ruby": {
        ".pack": lambda a, kw: _pack(a[1], a[0] if isinstance(a[0], list) else [a[0]]), ".unpack1": lambda a, kw: _unpack(a[1], a[0])[0],
        ".unpack": lambda a, kw: _unpack(a[1], a[0]), ".reverse": _d(_rev), ".first": _d(lambda v: v[0]), ".join": lambda a, kw: _join(a[0], a[1] if len(a) > 1 else ""),
        ".tr": _d(_tr), ".strip": _d(lambda v: _s(v).strip()), ".chomp": _d(lambda v: _s(v).rstrip("\n")), ".to_s": _d(_same),
        ".chr": _d(lambda v: _chars([v])), ".downcase": _d(lambda v: _s(v).lower()), ".upcase": _d(lambda v: _s(v).upper()),
        "Base64.decode64": _d(_b64), "Base64.strict_decode64": _d(_b64), "Base64.urlsafe_decode64": _d(_b64),
        "File.join": lambda a, kw: "/".join(_s(x).rstrip("/") if i == 0 else _s(x).strip("/") for i, x in enumerate(_flat(a))),
        "File.expand_path": _d(_same), "format": lambda a, kw: _format(a), "sprintf": lambda a, kw: _format(a),
    },
    "php": {
        "hex2bin": _d(_hex), "base64_decode": _d(_b64), "str_rot13": _d(_rot13), "strrev": _d(_rev), "chr": _d(lambda v: _chars([v])),
        "implode": lambda a, kw: _join(a[1], a[0]) if len(a) == 2 else _join(a[0]), "join": lambda a, kw: _join(a[1], a[0]) if len(a) == 2 else _join(a[0]),
        "pack": lambda a, kw: _pack(a[0], a[1:]), "sprintf": lambda a, kw: _format(a), "array": lambda a, kw: list(a),
        "strtolower": _d(lambda v: _s(v).lower()), "strtoupper": _d(lambda v: _s(v).upper()), "trim": _d(lambda v: _s(v).strip()),
        "urldecode": _d(lambda v: __import__("urllib.parse").parse.unquote_plus(_s(v))), "rawurldecode": _d(lambda v: __import__("urllib.parse").parse.unquote(_s(v))),
        "FILE_APPEND": _const("FILE_APPEND"), "PHP_EOL": _const("\n"),
    },
    "lua": {
        "string.char": lambda a, kw: _chars(a), "string.reverse": _d(_rev), ".reverse": _d(_rev), "string.format": lambda a, kw: _format(a),
        ".format": lambda a, kw: _format(a), "table.concat": lambda a, kw: _join(a[0], a[1] if len(a) > 1 else ""), "string.upper": _d(lambda v: _s(v).upper()),
        "string.lower": _d(lambda v: _s(v).lower()), "tostring": _d(_same),
    },
    "awk": {"sprintf": lambda a, kw: _format(a), "tolower": _d(lambda v: _s(v).lower()), "toupper": _d(lambda v: _s(v).upper())},
    "r": {
        "c": lambda a, kw: _flat(a), "paste0": lambda a, kw: _paste(a, kw, ""), "paste": lambda a, kw: _paste(a, kw, " "),
        "path.expand": _d(_same), "normalizePath": _d(_same), "file.path": lambda a, kw: "/".join(_s(x) for x in _flat(a)),
        "intToUtf8": lambda a, kw: _chars(_flat(a)), "rawToChar": _d(lambda v: _chars(v) if isinstance(v, list) else _s(v)),
        "as.raw": _d(lambda v: v), "rev": _d(_rev), "sprintf": lambda a, kw: _format(a), "parse": lambda a, kw: _s(kw.get("text", a[0] if a else None)),
        "str2lang": _d(_same), "str2expression": _d(_same), "base64enc.base64decode": _d(_b64), "jsonlite.base64_dec": _d(_b64), "openssl.base64_decode": _d(_b64),
        "chartr": _d(lambda a, b, v: _tr(v, a, b)), "toupper": _d(lambda v: _s(v).upper()), "tolower": _d(lambda v: _s(v).lower()),
    },
    "julia": {
        "String": _d(lambda v: _chars(v) if isinstance(v, list) else _s(v)), "hex2bytes": _d(_hex), "base64decode": _d(_b64), "Base64.base64decode": _d(_b64),
        "reverse": _d(_rev), "join": lambda a, kw: _join(a[0], a[1] if len(a) > 1 else ""), "string": lambda a, kw: "".join(_s(x) for x in a),
        "Char": _d(lambda v: _chars([v])), "joinpath": lambda a, kw: "/".join(_s(x).rstrip("/") for x in a), "expanduser": _d(_same),
        "Meta.parse": _d(_same), "Base.Meta.parse": _d(_same), "Cmd": _d(lambda v: v), "UInt8": _d(lambda v: v),
    },
    "applescript": {"quoted": _d(lambda v: shell_quote(_s(v)))},
    "tcl": {},
    "elisp": {},
}


def _flat(values: Any) -> list[Any]:
    out: list[Any] = []
    for v in values:
        out.extend(_flat(v) if isinstance(v, list) else [v])
    return out


# ----------------------------------------------------------------------- harmless names


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


HARMLESS: dict[str, frozenset[str]] = {
    "perl": _names(
        "print printf say if unless else elsif while until for foreach my our local use no strict warnings and or not eq ne lt gt le ge cmp x "
        "length substr index rindex uc lc ucfirst lcfirst join split map grep sort reverse keys values each exists defined scalar sprintf "
        "chomp chop chr ord hex oct abs int sqrt push pop shift unshift splice wantarray return last next redo die warn exit time localtime "
        "gmtime sleep pack unpack quotemeta pos ref bless sub do close binmode eof readline STDIN STDOUT STDERR ARGV ARGVOUT DATA BEGIN END "
        "Dumper decode_json encode_json sum sum0 max min first uniq wait waitpid lock undef delete tr y s m q qq qw qr"
    ),
    "ruby": _names(
        "puts print p pp printf require RUBY_VERSION RUBY_PLATFORM RUBY_RELEASE_DATE RUBY_PATCHLEVEL ARGV ARGF STDIN JSON JSON.parse "
        "JSON.generate JSON.pretty_generate JSON.dump YAML.load YAML.safe_load File.exist? File.exists? File.file? File.directory? File.basename "
        "File.dirname File.extname File.join File.expand_path File.size Dir.pwd Time.now Time.at to_s to_i to_f to_a to_h to_sym length size "
        "upcase downcase capitalize strip lstrip rstrip chomp chop split join map each each_with_index each_line select reject find first last "
        "keys values sort sort_by uniq count include? start_with? end_with? empty? nil? any? all? inspect reverse sum min max if else elsif end "
        "do unless while until then nil true false def return and or not gsub sub tr chars bytes lines format sprintf read gets fetch dig "
        "zip flatten compact tally group_by slice key? has_key? class freeze dup tap then yield self __FILE__ __dir__ lambda proc new "
        "exit abort Integer Float String Array Hash rand sleep case when in begin rescue ensure raise"
    ),
    "php": _names(
        "echo print printf sprintf var_dump print_r var_export json_encode json_decode strlen strtoupper strtolower str_replace substr strpos "
        "explode implode trim count array isset empty if else elseif foreach for while as function return PHP_VERSION PHP_EOL PHP_INT_MAX "
        "PHP_INT_SIZE PHP_OS PHP_OS_FAMILY PHP_MAJOR_VERSION PHP_MINOR_VERSION phpversion date time true false null TRUE FALSE NULL die exit "
        "array_keys array_values in_array sort ksort round floor ceil intval strval ucfirst str_repeat number_format str_pad max min abs "
        "extension_loaded function_exists class_exists get_loaded_extensions php_uname php_sapi_name ini_get memory_get_usage microtime "
        "file_exists is_file is_dir basename dirname realpath pathinfo md5 sha1 hash crc32 str_contains str_starts_with str_ends_with "
        "preg_match preg_split array_sum array_slice array_merge range list fclose fgets feof stdin STDIN STDOUT STDERR new"
    ),
    "lua": _names(
        "print string.format string.rep string.sub string.upper string.lower string.len string.reverse string.char string.byte string.find "
        "string.match string.gmatch string.gsub tostring tonumber type pairs ipairs select table.concat table.insert table.remove table.sort "
        "table.unpack unpack math.floor math.ceil math.max math.min math.abs math.sqrt math.random math.huge math.pi _VERSION os.time os.date "
        "os.clock os.exit io.read io.stdin io.lines assert error pcall local function end if then else elseif for in do while repeat until "
        "return nil true false and or not"
    ),
    "awk": _names(
        "print printf length substr index split sub gsub gensub match sprintf tolower toupper int sqrt exp log sin cos atan2 rand srand "
        "strftime systime mktime NR NF FS OFS RS ORS FILENAME FNR SUBSEP RSTART RLENGTH BEGIN END BEGINFILE ENDFILE if else while for in do "
        "next nextfile exit delete function func return close fflush asort asorti ARGV ARGC CONVFMT OFMT IGNORECASE"
    ),
    "r": _names(
        "print cat paste paste0 sprintf format summary mean median sd var sum min max range length c list data.frame head tail str nrow ncol "
        "seq seq_len seq_along rep sessionInfo R.version R.version.string version Sys.time Sys.Date library require "
        "suppressPackageStartupMessages suppressWarnings packageVersion installed.packages nchar toupper tolower substr substring strsplit "
        "unlist names sort order table round signif as.numeric as.character as.integer as.logical is.na is.null if else for while function "
        "in TRUE FALSE NULL NA Inf return invisible message file.exists dir.exists basename dirname normalizePath file.path sqrt abs exp "
        "log lapply sapply vapply mapply apply matrix rnorm runif rbinom set.seed quantile cor cov lm glm t.test table unique rev which any "
        "all identical nlevels levels factor Sys.getenv R.home getwd toupper trimws sprintf gsub sub grepl regmatches nchar print.default "
        "stopifnot stop warning tryCatch exists get0 is.function colnames rownames dim aggregate merge tapply cumsum diff prod"
    ),
    "julia": _names(
        "println print show display @show @printf @sprintf string repr length VERSION typeof sum maximum minimum collect map filter join "
        "split uppercase lowercase reverse parse Int Float64 sqrt abs round floor ceil if else elseif end for in while function return "
        "true false nothing using import versioninfo @time @elapsed isfile isdir ispath pwd readline Sys.KERNEL Sys.CPU_THREADS "
        "Threads.nthreads begin let do local const sort unique first last push! append! keys values haskey get abspath basename dirname "
        "splitext occursin startswith endswith replace strip Dict Vector Array rand zeros ones range eachindex enumerate zip sin cos exp log"
    ),
    "applescript": _names("return set to of the log display dialog notification current date get item text count length quoted form"),
    "tcl": _names(
        "puts set expr if else elseif then for foreach while proc return incr append lappend llength lindex lrange lsort lsearch list join "
        "split string format info clock array dict regexp regsub package catch gets close flush fconfigure after break continue exit "
        "variable global upvar namespace scan binary lmap lassign concat expect interact exp_continue log_user timeout"
    ),
    "elisp": _names(
        "message princ print prin1 format concat let let* setq progn if when unless cond and or not null car cdr cadr list cons length "
        "mapconcat mapcar number-to-string string-to-number upcase downcase emacs-version emacs-major-version emacs-minor-version "
        "system-type insert with-temp-buffer buffer-string kill-emacs require provide defun defvar defconst lambda quote function string "
        "substring replace-regexp-in-string split-string string-join symbol-name format-time-string current-time nth dolist dotimes "
        "while + - * / = < > <= >= eq equal string= string-match match-string file-exists-p file-directory-p expand-file-name "
        "file-name-directory file-name-nondirectory file-name-extension getenv user-login-name user-full-name featurep "
        "package-installed-p locate-library t nil"
    ),
}

# ----------------------------------------------------------------------- call tables

_RUN = "a string run by a shell, or an argv run without one"

TABLES: dict[str, tuple[Call, ...]] = {
    "perl": (
        Call(r"(?:CORE\.)?(?:system|exec)", "run", "perl system/exec: " + _RUN, ('system "rm -rf /x"', "exec('ls', '-l')"), ('print "system(1)"',)),
        Call(r"readpipe", "run", "perl readpipe: the backtick operator as a function", ("readpipe('id')",)),
        Call(r"(?:IPC\.Open3\.)?open3", "argv", "IPC::Open3 open3 runs its command (after three handles)", ("open3($i, $o, $e, 'ls')",), arg="from=3"),
        Call(r"(?:IPC\.Open2\.)?open2", "argv", "IPC::Open2 open2 runs its command (after two handles)", ("open2($o, $i, 'ls')",), arg="from=2"),
        Call(r"(?:File\.Path\.)?(?:rmtree|remove_tree)", "rmtree", "File::Path deletes whole trees", ("remove_tree('/x')", "rmtree '/x'"), ("print 'rmtree'",)),
        Call(r"unlink", "delete", "perl unlink deletes files", ("unlink '/x'",), ("print 'unlink'",)),
        Call(r"rmdir", "delete", "perl rmdir removes an (empty) directory", ("rmdir '/x'",), arg="rmdir"),
        Call(r"open", "perl_open", "perl open: a file read or written, a command piped, a handle duplicated", ("open(my $f, '>', '/x')", 'open(F, "|sh")')),
        Call(r"sysopen", "opaque", "perl sysopen opens a file with numeric flags the model does not decode", ("sysopen(F, '/x', 1)",)),
        Call(r"(?:File\.Copy\.)?(?:copy|cp)", "copy", "File::Copy copies a file", ("copy('/a', '/b')",)),
        Call(r"(?:File\.Copy\.)?(?:move|mv)|rename", "copy", "File::Copy move and rename move a file", ("rename('/a', '/b')",), arg="move"),
        Call(r"symlink", "copy", "perl symlink", ("symlink('/a', '/b')",), arg="symlink"),
        Call(r"chmod", "chmod", "perl chmod MODE, FILES", ("chmod 04755, '/bin/sh'",)),
        Call(r"(?:File\.Slurp\.)?write_file|.*\.spew(?:_utf8)?", "write", "File::Slurp write_file / Path::Tiny spew write a file", ("write_file('/x', 'y')",)),
        Call(r"(?:File\.Path\.)?(?:make_path|mkpath)", "mkdir", "File::Path make_path", ("make_path('/x')",)),
        Call(r"IO\.Socket(?:\.INET6?|\.IP|\.SSL)?\.new|socket|connect", "socket", "perl sockets", ('IO::Socket::INET->new("h:1")', "socket(S, 2, 1, 6)")),
        Call(r"listen|IO\.Socket(?:\.INET6?|\.IP)?\.new_server", "listen", "a listening socket", ("listen(S, 5)",)),
        Call(r".*\.fdopen|(?:POSIX\.)?dup2", "stdio", "standard input/output re-opened on another handle (a socket)", ("STDIN->fdopen($c, 'r')",)),
        Call(r"eval", "eval", "perl eval of a string is code", ('eval "print 1"',), arg=""),
        Call(r"do", "source", "perl do FILE runs a file", ('do "/tmp/x.pl"',)),
        Call(r"require", "source", "perl require of a file path runs it", ('require "./x.pl"',), arg="module"),
        Call(r"(?:LWP\.Simple\.)?(?:get|getprint)|.*\.(?:get|request|post|mirror)", "fetch", "LWP::Simple get, HTTP::Tiny->get: network fetches", ('get("http://x")',)),
        Call(r"(?:LWP\.Simple\.)?(?:getstore|mirror)", "fetch", "LWP::Simple getstore saves a URL to a file", ('getstore("http://x", "/tmp/x")',), arg="dest"),
        Call(r"syscall|DynaLoader\.\w+|.*\.dl_load_file", "library", "native code loaded or a raw system call", ("syscall(1)",)),
        Call(r"fork|POSIX\.fork", "fork", "perl fork starts a process (in an endless loop, a fork bomb)", ("fork while fork",)),
        Call(r"say", "print", "perl say prints with a newline", ('say "x"',), arg="concat_nl"),
        Call(r"printf", "print", "perl printf prints formatted text", ('printf "%s", "x"',), arg="format"),
        Call(r"print", "print", "perl print prints (or writes into a handle)", ('print "x"',)),
    ),
    "ruby": (
        Call(r"(?:Kernel\.)?(?:system|exec|spawn)|Process\.(?:spawn|exec)|Open3\.\w+|PTY\.spawn", "run", "ruby process calls: " + _RUN, ('system("ls")', 'Open3.capture2("ls")')),
        Call(r"IO\.popen", "run", "ruby IO.popen runs a command (string or argv)", ('IO.popen("ls")',), arg="first"),
        Call(r"FileUtils\.(?:rm_rf|rm_r|remove_dir|remove_entry|remove_entry_secure|rmtree)", "rmtree", "FileUtils deletes whole trees", ('FileUtils.rm_rf("/x")',)),
        Call(r"FileUtils\.(?:rm|rm_f|remove|remove_file)|File\.(?:delete|unlink)", "delete", "ruby file deletes", ('File.delete("/x")',)),
        Call(r"Dir\.(?:delete|rmdir|unlink)|FileUtils\.rmdir", "delete", "ruby directory removes (empty)", ('Dir.rmdir("/x")',), arg="rmdir"),
        Call(r"(?:File|IO)\.(?:write|binwrite)", "write", "File.write(path, text) writes a file", ('File.write("/x", "y")',)),
        Call(r"(?:File|IO|Kernel)\.(?:open|new)|open|URI\.open", "open", "ruby open: a file, a |command, or (open-uri) a URL", ('File.open("/x", "w")', 'open("|ls")')),
        Call(r"(?:File|IO)\.(?:read|readlines|binread|foreach)", "read", "ruby file reads (a |command runs)", ('File.read("/x")',)),
        Call(r"FileUtils\.(?:cp|cp_r|copy|install)", "copy", "FileUtils copies", ('FileUtils.cp("/a", "/b")',)),
        Call(r"FileUtils\.(?:mv|move)|File\.rename", "copy", "ruby moves", ('File.rename("/a", "/b")',), arg="move"),
        Call(r"FileUtils\.(?:ln_s|ln_sf)|File\.symlink", "copy", "ruby symlinks", ('File.symlink("/a", "/b")',), arg="symlink"),
        Call(r"FileUtils\.chmod(?:_R)?|File\.chmod", "chmod", "ruby chmod MODE, FILES", ('File.chmod(0755, "/x")',)),
        Call(r"FileUtils\.(?:mkdir_p|mkdir|makedirs)|Dir\.mkdir", "mkdir", "ruby mkdir", ('Dir.mkdir("/x")',)),
        Call(r"(?:Kernel\.)?(?:eval|instance_eval|class_eval|module_eval|instance_exec)|binding\.eval|.*\.(?:instance_eval|class_eval|module_eval)", "eval", "ruby eval of a string is code", ('eval("1")',)),
        Call(r"load|require_relative|Kernel\.load", "source", "ruby load runs a file", ('load "/tmp/x.rb"',)),
        Call(r"require", "source", "ruby require of a path runs it", ('require "./x"',), ('require "json"',), arg="module"),
        Call(r"TCPSocket\.(?:new|open)|Socket\.(?:tcp|new)|UDPSocket\.new|UNIXSocket\.new", "socket", "ruby sockets", ('TCPSocket.new("h", 1)',)),
        Call(r"(?:TCPServer|UNIXServer)\.(?:new|open)|Socket\.tcp_server_loop", "listen", "ruby listening sockets", ("TCPServer.new(1)",)),
        Call(r".*\.reopen|IO\.for_fd", "stdio", "standard input/output re-opened on another handle (a socket)", ("$stdin.reopen(s)",)),
        Call(r"Net\.HTTP\.\w+|HTTParty\.\w+|Faraday\.\w+|RestClient\.\w+|Excon\.\w+|HTTP\.get", "fetch", "ruby network fetches", ('Net::HTTP.get(URI("http://x"))',)),
        Call(r".*\.(?:send|public_send|__send__|method|instance_variable_get|const_get)|Object\.const_get", "opaque", "a method picked by name at run time", ('Kernel.send(:system, "x")',)),
        Call(r"(?:Fiddle|FFI|DL)\.\w+|.*\.dlopen", "library", "native libraries loaded", ('Fiddle.dlopen("x")',)),
        Call(r"ENV\.(?:to_h|to_a|each|each_pair|inspect|keys|map|select|filter_map|sort)", "env_dump", "the whole environment read", ("ENV.to_h",)),
        Call(r"(?:Process\.|Kernel\.)?fork", "fork", "ruby fork starts a process (in an endless loop, a fork bomb)", ("loop { fork }",)),
        Call(r"(?:\$stdout|STDOUT)\.(?:puts|print|write)", "print", "printing to standard output", ('$stdout.puts "x"',), arg="lines"),
        Call(r"(?:\$stderr|STDERR)\.\w+|warn", "stderr", "printing to standard error", ('$stderr.puts "x"',)),
        Call(r"\.(?:puts|print|write|syswrite|<<)", "fwrite", "text written into an open file", ('f = File.open("/x", "a"); f.puts "y"',), arg="method"),
        Call(r"puts", "print", "ruby puts", ('puts "x"',), arg="lines"),
        Call(r"printf", "print", "ruby printf", ('printf("%s", "x")',), arg="format"),
        Call(r"print", "print", "ruby print", ('print "x"',)),
    ),
    "php": (
        Call(r"system|exec|shell_exec|passthru|proc_open|expect_popen", "run", "php shell calls: the first argument is run by a shell", ('system("ls");',), arg="first"),
        Call(r"pcntl_exec", "argv", "php pcntl_exec(path, args) replaces the process", ('pcntl_exec("/bin/sh", ["-c", "ls"]);',)),
        Call(r"popen", "popen", "php popen(cmd, mode) runs a command", ('popen("ls", "r");',)),
        Call(r"unlink", "delete", "php unlink deletes a file", ('unlink("/x");',), arg="first"),
        Call(r"rmdir", "delete", "php rmdir removes an (empty) directory", ('rmdir("/x");',), arg="rmdir"),
        Call(r"file_put_contents", "write", "php file_put_contents(path, text[, FILE_APPEND]) writes a file", ('file_put_contents("/x", "y");',), arg="path,text,flags"),
        Call(r"fopen|SplFileObject", "open", "php fopen(path, mode): a URL is fetched", ('fopen("/x", "w");',), arg="nopipe"),
        Call(r"fwrite|fputs", "fwrite", "php fwrite(handle, text)", ('$f = fopen("/x", "a"); fwrite($f, "y");',)),
        Call(r"file_get_contents|readfile|file|highlight_file|show_source|parse_ini_file", "read", "php reads (a URL is fetched)", ('file_get_contents("/x");',)),
        Call(r"copy", "copy", "php copy", ('copy("/a", "/b");',)),
        Call(r"rename", "copy", "php rename", ('rename("/a", "/b");',), arg="move"),
        Call(r"symlink|link", "copy", "php symlink", ('symlink("/a", "/b");',), arg="symlink"),
        Call(r"chmod", "chmod", "php chmod(path, mode)", ('chmod("/x", 04755);',), arg="path,mode"),
        Call(r"mkdir", "mkdir", "php mkdir", ('mkdir("/x");',)),
        Call(r"eval|assert|create_function", "eval", "php eval of a string is code", ('eval("echo 1;");',), bare=True),
        Call(r"include|require|include_once|require_once", "source", "php include runs a file", ('include "/tmp/x.php";',), bare=True),
        Call(r"fsockopen|pfsockopen|stream_socket_client|socket_create|socket_connect", "socket", "php sockets", ('fsockopen("h", 1);',)),
        Call(r"stream_socket_server|socket_listen|socket_bind", "listen", "php listening sockets", ('stream_socket_server("tcp://0.0.0.0:1");',)),
        Call(r"curl_exec|curl_init|get_headers", "fetch", "php network fetches", ('curl_init("http://x");',)),
        Call(r"call_user_func|call_user_func_array|array_map|array_walk|array_filter|usort|forward_static_call|preg_replace_callback|register_shutdown_function", "opaque", "a function picked by name at run time", ('call_user_func("system", "x");',)),
        Call(r"getenv", "env_dump", "php getenv() without a name reads the whole environment", ("getenv();",), ('getenv("X");',), arg="noargs"),
        Call(r"phpinfo", "env_dump", "phpinfo prints the whole environment", ("phpinfo();",)),
        Call(r"dl|FFI\.\w+|FFI", "library", "native libraries loaded", ('FFI::cdef("x");',)),
        Call(r"pcntl_fork", "fork", "php pcntl_fork starts a process", ("pcntl_fork();",)),
        Call(r"error_log", "stderr", "php error_log", ('error_log("x");',)),
        Call(r"echo|print", "print", "php echo/print", ('echo "x";',), bare=True),
        Call(r"printf", "print", "php printf", ('printf("%s", "x");',), arg="format"),
    ),
    "lua": (
        Call(r"os\.execute", "run", "lua os.execute runs a shell string", ('os.execute("ls")',)),
        Call(r"io\.popen", "popen", "lua io.popen runs a shell string", ('io.popen("ls")',)),
        Call(r"os\.remove", "delete", "lua os.remove deletes a file (or empty directory)", ('os.remove("/x")',)),
        Call(r"os\.rename", "copy", "lua os.rename", ('os.rename("/a", "/b")',), arg="move"),
        Call(r"io\.open", "open", "lua io.open(path, mode)", ('io.open("/x", "w")',), arg="nopipe"),
        Call(r"io\.lines", "read", "lua io.lines reads a file", ('io.lines("/x")',)),
        Call(r"io\.write", "print", "lua io.write prints", ('io.write("x")',)),
        Call(r"\.write", "fwrite", "text written into an open file", ('local f = io.open("/x", "a"); f:write("y")',), arg="method"),
        Call(r"load|loadstring", "eval", "lua load of a string is code", ('load("return 1")()',)),
        Call(r"dofile|loadfile", "source", "lua dofile runs a file", ('dofile("/tmp/x.lua")',)),
        Call(r"require", "source", "lua require of a path runs it", ('require("./x")',), ('require("socket")',), arg="module"),
        Call(r"socket\.tcp|socket\.connect|socket\.udp", "socket", "luasocket", ('socket.connect("h", 1)',)),
        Call(r"socket\.bind", "listen", "luasocket server", ('socket.bind("*", 1)',)),
        Call(r"(?:socket\.)?http\.request|https\.request", "fetch", "luasocket http", ('http.request("http://x")',)),
        Call(r"package\.loadlib|ffi\.load|ffi\.cdef", "library", "native libraries loaded", ('ffi.load("x")',)),
        Call(r"print", "print", "lua print", ('print("x")',), arg="tabs_nl"),
    ),
    "awk": (
        Call(r"system", "run", "awk system() runs a shell string", ('BEGIN{system("ls")}',), ('BEGIN{print "system(x)"}',)),
        Call(r"getline", "awk_getline", "awk getline: from a command (cmd | getline), a coprocess or a file", ('BEGIN{"ls" | getline}',)),
        Call(r"ENVIRON", "env_dump", "awk ENVIRON reads the environment", ('BEGIN{for (k in ENVIRON) print k}',)),
        Call(r"extension", "library", "gawk extension() loads native code", ('BEGIN{extension("x")}',)),
        Call(r"printf", "print", "awk printf (with > file, | command, |& coprocess)", ('BEGIN{printf "%s", "x"}',), arg="format"),
        Call(r"print", "print", "awk print (with > file, | command, |& coprocess)", ('BEGIN{print "x"}',)),
    ),
    "r": (
        Call(r"system|base\.system|shell", "run", "R system() runs a shell string", ('system("ls")',), arg="first"),
        Call(r"system2|base\.system2", "joined", "R system2(cmd, args) pastes its words into a shell line", ('system2("ls", "-l")',)),
        Call(r"processx\.run|sys\.exec_wait|sys\.exec_background|sys\.exec_internal", "argv", "processx/sys run an argv", ('processx::run("ls", c("-l"))',)),
        Call(r"pipe", "popen", "R pipe(cmd) runs a shell string", ('pipe("ls")',)),
        Call(r"unlink|base\.unlink", "delete", "R unlink (recursive=TRUE deletes trees)", ('unlink("/x")',)),
        Call(r"file\.remove", "delete", "R file.remove", ('file.remove("/x")',)),
        Call(r"writeLines", "write", "R writeLines(text, con): each line ends with a newline", ('writeLines("y", "/x")',), arg="line,path"),
        Call(r"write|readr\.write_file", "write", "R write(text, file)", ('write("y", "/x")',), arg="text,path"),
        Call(r"saveRDS|save|write\.csv|write\.table|sink", "write", "R writers (file= or second argument)", ('saveRDS(x, "/x")',), arg="text,path"),
        Call(r"file\.copy", "copy", "R file.copy", ('file.copy("/a", "/b")',)),
        Call(r"file\.rename", "copy", "R file.rename", ('file.rename("/a", "/b")',), arg="move"),
        Call(r"file\.symlink", "copy", "R file.symlink", ('file.symlink("/a", "/b")',), arg="symlink"),
        Call(r"Sys\.chmod", "chmod", "R Sys.chmod(path, mode)", ('Sys.chmod("/x", "4755")',), arg="path,mode"),
        Call(r"dir\.create", "mkdir", "R dir.create", ('dir.create("/x")',)),
        Call(r"readLines|readRDS|read\.csv|read\.table|scan|readr\.read_file|url", "read", "R reads (a URL is fetched)", ('readLines("/x")',)),
        Call(r"file", "open", "R file(path, mode) connection", ('file("/x", "w")',), arg="nopipe"),
        Call(r"source|sys\.source", "source", "R source() runs a file or URL", ('source("http://x")',)),
        Call(r"eval|evalq|eval\.parent", "eval", "R eval(parse(text=…)) is code", ('eval(parse(text="1"))',)),
        Call(r"download\.file|utils\.download\.file|curl\.curl_download", "fetch", "R download.file(url, destfile)", ('download.file("http://x", "/tmp/x")',), arg="dest"),
        Call(r"httr\.\w+|GET|POST|RCurl\.getURL|curl\.curl_fetch_memory", "fetch", "R network fetches", ('httr::GET("http://x")',)),
        Call(r"socketConnection|make\.socket", "socket", "R sockets", ('socketConnection("h", 1)',)),
        Call(r"dyn\.load|library\.dynam", "library", "native libraries loaded", ('dyn.load("x.so")',)),
        Call(r"install\.packages|remotes\.install_\w+|devtools\.install_\w+", "opaque", "packages installed from the network (their code runs)", ('install.packages("x")',)),
        Call(r"Sys\.getenv", "env_dump", "R Sys.getenv() without a name reads the whole environment", ("Sys.getenv()",), ('Sys.getenv("X")',), arg="noargs"),
        Call(r"message|warning", "stderr", "R message prints to standard error", ('message("x")',)),
        Call(r"cat", "print", "R cat (file= writes a file)", ('cat("x")',), arg="spaces"),
        Call(r"print", "print", "R print (formatted: not constant text)", ("print(1)",), arg="unknown"),
    ),
    "julia": (
        Call(r"run|Base\.run|success|pipeline", "run", "julia run(`cmd`) runs an argv", ("run(`ls`)",), arg="first"),
        Call(r"rm|Base\.rm|Base\.Filesystem\.rm", "delete", "julia rm (recursive=true deletes trees)", ('rm("/x")',), arg="first"),
        Call(r"write", "write", "julia write(path, text)", ('write("/x", "y")',)),
        Call(r"open", "open", "julia open(path, mode)", ('open("/x", "w")',), arg="nopipe"),
        Call(r"read|readlines|readchomp|readline|eachline", "read", "julia reads (a `cmd` is run)", ('read("/x", String)',)),
        Call(r"cp", "copy", "julia cp", ('cp("/a", "/b")',)),
        Call(r"mv", "copy", "julia mv", ('mv("/a", "/b")',), arg="move"),
        Call(r"symlink", "copy", "julia symlink", ('symlink("/a", "/b")',), arg="symlink"),
        Call(r"chmod", "chmod", "julia chmod(path, mode)", ('chmod("/x", 0o4755)',), arg="path,mode"),
        Call(r"mkpath|mkdir", "mkdir", "julia mkpath", ('mkpath("/x")',)),
        Call(r"include|evalfile|Base\.include", "source", "julia include runs a file", ('include("/tmp/x.jl")',)),
        Call(r"eval|Core\.eval|@eval|include_string", "eval", "julia eval of parsed code", ('eval(Meta.parse("1"))',), arg="last"),
        Call(r"download|Downloads\.download|Base\.download|HTTP\.get|HTTP\.request", "fetch", "julia network fetches", ('download("http://x")',), arg="dest"),
        Call(r"connect|Sockets\.connect", "socket", "julia sockets", ('connect("h", 1)',)),
        Call(r"listen|Sockets\.listen", "listen", "julia listening sockets", ("listen(1)",)),
        Call(r"ccall|Libdl\.dlopen|dlopen|@ccall", "library", "native code called", ('ccall(:f, Int, ())',)),
        Call(r"Pkg\.add|Pkg\.develop|Pkg\.build", "opaque", "packages installed from the network (their code runs)", ('Pkg.add("x")',)),
        Call(r"println", "print", "julia println", ('println("x")',), arg="concat_nl"),
        Call(r"print", "print", "julia print", ('print("x")',)),
        Call(r"@printf", "print", "julia @printf", ('@printf("%s", "x")',), arg="format"),
    ),
    "applescript": (
        Call(r"do_shell_script", "run", "AppleScript do shell script runs a shell string", ('do shell script "ls"',), ('display dialog "do shell script"',), bare=True),
        Call(r"log", "stderr", "AppleScript log", ('log "x"',)),
    ),
    "tcl": (
        Call(r"exec", "exec_words", "tcl exec runs an argv (| and > are its own pipes and redirections)", ("exec ls -l",), ('puts "exec ls"',)),
        Call(r"spawn|exp_spawn", "spawn", "expect spawn runs an argv", ("spawn ls",)),
        Call(r"send|exp_send", "send", "expect send types text into the spawned program (a shell runs it)", ('spawn sh; send "ls\\r"',)),
        Call(r"open", "open", "tcl open: a file, or |command", ("open /x w",)),
        Call(r"file\.delete", "delete", "tcl file delete (-force deletes trees)", ("file delete /x",)),
        Call(r"file\.copy", "copy", "tcl file copy", ("file copy /a /b",)),
        Call(r"file\.rename", "copy", "tcl file rename", ("file rename /a /b",), arg="move"),
        Call(r"file\.link", "copy", "tcl file link", ("file link -symbolic /b /a",), arg="symlink"),
        Call(r"file\.mkdir", "mkdir", "tcl file mkdir", ("file mkdir /x",)),
        Call(r"file\.attributes", "opaque", "tcl file attributes changes permissions or owners", ("file attributes /x -permissions 04755",)),
        Call(r"socket", "socket", "tcl socket (-server listens)", ("socket h 1",)),
        Call(r"source", "source", "tcl source runs a file", ("source /tmp/x.tcl",)),
        Call(r"eval|uplevel|subst|interp\.eval|namespace\.eval|apply", "eval", "tcl eval of a string is code", ("eval {puts 1}",)),
        Call(r"http\.geturl|::http::geturl", "fetch", "tcl http::geturl", ("http::geturl http://x",)),
        Call(r"load", "library", "tcl load loads native code", ("load x.so",)),
        Call(r"puts", "print", "tcl puts (to a channel: writes into it)", ("puts x",)),
    ),
    "elisp": (
        Call(r"shell-command|shell-command-to-string|async-shell-command|call-process-shell-command|process-file-shell-command", "run", "emacs shell commands run a shell string", ('(shell-command "ls")',), arg="first"),
        Call(r"start-process-shell-command|start-file-process-shell-command", "run", "a shell string run as a process", ('(start-process-shell-command "n" nil "ls")',), arg="last"),
        Call(r"call-process|process-file", "argv", "call-process PROGRAM INFILE DEST DISPLAY ARGS…", ('(call-process "ls" nil nil nil "-l")',), arg="drop=3"),
        Call(r"process-lines", "argv", "process-lines PROGRAM ARGS…", ('(process-lines "ls")',)),
        Call(r"start-process|start-file-process", "argv", "start-process NAME BUFFER PROGRAM ARGS…", ('(start-process "n" nil "ls")',), arg="from=2"),
        Call(r"make-process", "argv", "make-process :command (PROGRAM ARGS…)", ('(make-process :name "n" :command (list "ls"))',), arg="kw=command"),
        Call(r"delete-directory", "delete", "delete-directory DIR RECURSIVE", ('(delete-directory "/x")',), arg="flag=1"),
        Call(r"delete-file", "delete", "delete-file", ('(delete-file "/x")',), arg="first"),
        Call(r"write-region|append-to-file", "write", "write-region START END FILE APPEND", ('(write-region "y" nil "/x")',)),
        Call(r"with-temp-file", "write", "with-temp-file FILE (insert …)", ('(with-temp-file "/x" (insert "y"))',)),
        Call(r"copy-file|copy-directory", "copy", "copy-file", ('(copy-file "/a" "/b")',)),
        Call(r"rename-file", "copy", "rename-file", ('(rename-file "/a" "/b")',), arg="move"),
        Call(r"make-symbolic-link", "copy", "make-symbolic-link", ('(make-symbolic-link "/a" "/b")',), arg="symlink"),
        Call(r"set-file-modes", "chmod", "set-file-modes FILE MODE", ('(set-file-modes "/x" 2541)',), arg="path,mode"),
        Call(r"make-directory", "mkdir", "make-directory", ('(make-directory "/x")',)),
        Call(r"insert-file-contents|find-file|find-file-noselect", "read", "a file read", ('(insert-file-contents "/x")',)),
        Call(r"eval|funcall|apply", "eval", "emacs eval of a form read from a string", ('(eval (read "(+ 1 2)"))',)),
        Call(r"load|load-file", "source", "emacs load runs a file", ('(load "/tmp/x.el")',)),
        Call(r"url-retrieve|url-retrieve-synchronously|url-insert-file-contents|request", "fetch", "emacs network fetches", ('(url-retrieve-synchronously "http://x")',)),
        Call(r"url-copy-file", "fetch", "url-copy-file URL FILE", ('(url-copy-file "http://x" "/tmp/x")',), arg="dest"),
        Call(r"open-network-stream|make-network-process|open-gnutls-stream", "socket", "emacs sockets (:server t listens)", ('(open-network-stream "n" nil "h" 1)',)),
        Call(r"module-load|load-library", "library", "native modules loaded", ('(module-load "x.so")',)),
        Call(r"process-environment", "env_dump", "the whole environment read", ("(print process-environment)",)),
        Call(r"message", "stderr", "message prints to standard error in batch mode", ('(message "x")',)),
        Call(r"princ|print|prin1", "print", "printing to standard output", ('(princ "x")',)),
    ),
}
