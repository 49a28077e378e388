"""json's ``loads``/``dumps`` from the C accelerator ``_json``, without importing the json package.

``import json`` costs a fresh process some 12 ms: the package imports ``re`` and compiles
six regular expressions, none of which its C accelerator uses. A hook deciding in its own
process reads one JSON document and writes one, and ``_json``'s scanner and encoder are
what ``json`` itself runs for both. This module builds them the way CPython 3.11's
``json.decoder.JSONDecoder`` and ``json.encoder.JSONEncoder`` do, so values, text and
errors are the same — down to the Python frames between the caller and the scanner or
encoder, so a document nests as deep before ``RecursionError`` as it does with ``json``.

Indented text is the one thing 3.11 writes in Python (its C encoder has no indent): the
first hook call of a session writes the session's state file that way, so this module
carries json's Python encoder for it, the same chunks from the same steps. Without
``_json`` (another interpreter) everything goes to the real ``json``. ``JSONDecodeError``
is json's own class, imported the first time it is asked for — an ``except
fastjson.JSONDecodeError`` clause is evaluated only once an exception is on its way — and
``_json`` in 3.11 reads it from an already imported ``json.decoder``.
"""

from __future__ import annotations

import sys

try:
    import _json
except ImportError:  # another interpreter: the real json does everything
    _json = None  # type: ignore[assignment]

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from json import JSONDecodeError as JSONDecodeError
    from typing import Any, Protocol

    class _Reads(Protocol):
        def read(self) -> str | bytes: ...

#: json.decoder's ``_CONSTANTS``: what ``NaN``, ``Infinity`` and ``-Infinity`` decode to
_CONSTANTS = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}
_SPACE = " \t\n\r"  # json.decoder's WHITESPACE


def __getattr__(name: str) -> Any:
    """``JSONDecodeError``: json's class, imported on first use (an error is under way)."""
    if name == "JSONDecodeError":
        from json.decoder import JSONDecodeError

        return JSONDecodeError
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _decode_error(msg: str, doc: str, pos: int) -> ValueError:
    from json.decoder import JSONDecodeError

    return JSONDecodeError(msg, doc, pos)


class Decoder:
    """``json.JSONDecoder`` (strict) on ``_json``'s scanner: ``decode`` and ``raw_decode``
    as 3.11 has them. The scanner reads these attributes once, when it is made."""

    __slots__ = ("object_hook", "parse_float", "parse_int", "parse_constant", "strict",
                 "object_pairs_hook", "scan_once")
    scan_once: Callable[[str, int], tuple[Any, int]]

    def __init__(self, *, object_hook: Callable[[dict[str, Any]], Any] | None = None,
                 parse_float: Callable[[str], Any] | None = None,
                 parse_int: Callable[[str], Any] | None = None,
                 parse_constant: Callable[[str], Any] | None = None,
                 object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None = None) -> None:
        self.object_hook = object_hook
        self.parse_float = parse_float or float
        self.parse_int = parse_int or int
        self.parse_constant = parse_constant or _CONSTANTS.__getitem__
        self.strict = True
        self.object_pairs_hook = object_pairs_hook
        if _json is None:  # json's scanner in Python, through a real decoder
            import json

            self.scan_once = json.JSONDecoder(
                object_hook=object_hook, parse_float=parse_float, parse_int=parse_int,
                parse_constant=parse_constant, object_pairs_hook=object_pairs_hook).scan_once
        else:
            self.scan_once = _json.make_scanner(self)  # type: ignore[arg-type]  # reads a decoder's attributes

    def decode(self, s: str) -> Any:
        """The value of the JSON document ``s``, white space around it allowed."""
        obj, end = self.raw_decode(s, idx=len(s) - len(s.lstrip(_SPACE)))
        end = len(s) - len(s[end:].lstrip(_SPACE))
        if end != len(s):
            raise _decode_error("Extra data", s, end)
        return obj

    def raw_decode(self, s: str, idx: int = 0) -> tuple[Any, int]:
        """The value of the JSON document starting at ``idx`` and where it ends."""
        while True:
            errors_ready = "json.decoder" in sys.modules  # before the scan: another thread may import it meanwhile
            try:
                obj, end = self.scan_once(s, idx)
            except StopIteration as err:
                raise _decode_error("Expecting value", s, err.value) from None
            except SystemError:
                # 3.11's scanner looks JSONDecodeError up in ``json.decoder`` among the
                # imported modules only, and fails without an exception when it is not
                # there: import it and scan again, at the same depth.
                if errors_ready:
                    raise
                import json.decoder  # noqa: F401
                continue
            return obj, end


_default_decoder: Decoder | None = None


def _detect_encoding(b: bytes | bytearray) -> str:
    """json's ``detect_encoding``: the codec of a JSON document given as bytes."""
    if b.startswith((b"\x00\x00\xfe\xff", b"\xff\xfe\x00\x00")):
        return "utf-32"
    if b.startswith((b"\xfe\xff", b"\xff\xfe")):
        return "utf-16"
    if b.startswith(b"\xef\xbb\xbf"):
        return "utf-8-sig"
    if len(b) >= 4:
        if not b[0]:
            return "utf-16-be" if b[1] else "utf-32-be"
        if not b[1]:
            return "utf-16-le" if b[2] or b[3] else "utf-32-le"
    elif len(b) == 2:
        if not b[0]:
            return "utf-16-be"
        if not b[1]:
            return "utf-16-le"
    return "utf-8"


def loads(s: str | bytes | bytearray, *, object_hook: Callable[[dict[str, Any]], Any] | None = None,
          parse_float: Callable[[str], Any] | None = None, parse_int: Callable[[str], Any] | None = None,
          parse_constant: Callable[[str], Any] | None = None,
          object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None = None) -> Any:
    """``json.loads``: the same value, or the same error."""
    if _json is None:
        import json

        return json.loads(s, object_hook=object_hook, parse_float=parse_float, parse_int=parse_int,
                          parse_constant=parse_constant, object_pairs_hook=object_pairs_hook)
    if isinstance(s, str):
        if s.startswith("\ufeff"):
            raise _decode_error("Unexpected UTF-8 BOM (decode using utf-8-sig)", s, 0)
    else:
        if not isinstance(s, (bytes, bytearray)):
            raise TypeError(f"the JSON object must be str, bytes or bytearray, not {s.__class__.__name__}")
        s = s.decode(_detect_encoding(s), "surrogatepass")
    if (object_hook is None and parse_int is None and parse_float is None
            and parse_constant is None and object_pairs_hook is None):
        global _default_decoder
        if _default_decoder is None:
            _default_decoder = Decoder()
        return _default_decoder.decode(s)
    return Decoder(object_hook=object_hook, object_pairs_hook=object_pairs_hook, parse_float=parse_float,
                   parse_int=parse_int, parse_constant=parse_constant).decode(s)


def load(fp: _Reads, **hooks: Any) -> Any:
    """``json.load``: ``loads`` of what ``fp.read()`` returns."""
    return loads(fp.read(), **hooks)


def _not_serializable(o: object) -> Any:
    """``JSONEncoder.default``: what a value json cannot write raises."""
    raise TypeError(f"Object of type {o.__class__.__name__} is not JSON serializable")


def dumps(obj: Any, *, skipkeys: bool = False, ensure_ascii: bool = True, check_circular: bool = True,
          allow_nan: bool = True, indent: int | str | None = None,
          separators: tuple[str, str] | None = None, default: Callable[[Any], Any] | None = None,
          sort_keys: bool = False) -> str:
    """``json.dumps``: the same text, or the same error."""
    if _json is None:
        import json

        return json.dumps(obj, skipkeys=skipkeys, ensure_ascii=ensure_ascii, check_circular=check_circular,
                          allow_nan=allow_nan, indent=indent, separators=separators, default=default,
                          sort_keys=sort_keys)
    if separators is not None:
        item_separator, key_separator = separators
    else:
        item_separator, key_separator = (", " if indent is None else ","), ": "
    return _encode(obj, ensure_ascii, {} if check_circular else None,
                   _not_serializable if default is None else default,
                   key_separator, item_separator, sort_keys, skipkeys, allow_nan, indent)


def _encode(o: Any, ensure_ascii: bool, *how: Any) -> str:
    """``JSONEncoder.encode``: a bare string directly, anything else joined from the encoder."""
    if isinstance(o, str):
        return _json.encode_basestring_ascii(o) if ensure_ascii else _json.encode_basestring(o)
    chunks = _iterencode(o, ensure_ascii, *how)
    if not isinstance(chunks, (list, tuple)):
        chunks = list(chunks)
    return "".join(chunks)


def _iterencode(o: Any, ensure_ascii: bool, markers: dict[int, Any] | None, default: Callable[[Any], Any],
                key_separator: str, item_separator: str, sort_keys: bool, skipkeys: bool,
                allow_nan: bool, indent: int | str | None) -> Any:
    """``JSONEncoder.iterencode(o, _one_shot=True)``: ``_json``'s encoder, or with an
    indent (which 3.11's C encoder does not write) the Python one."""
    encoder = _json.encode_basestring_ascii if ensure_ascii else _json.encode_basestring
    if indent is None:
        return _json.make_encoder(markers, default, encoder, None, key_separator, item_separator,
                                  sort_keys, skipkeys, allow_nan)(o, 0)
    return _python_encoder(markers, default, encoder, indent if isinstance(indent, str) else " " * indent,
                           _float_text(allow_nan), key_separator, item_separator, sort_keys, skipkeys)(o, 0)


def _float_text(allow_nan: bool) -> Callable[[float], str]:
    """``JSONEncoder.iterencode``'s ``floatstr``: a float's repr, or json's name for a
    non-finite one (an error when those are refused)."""

    def text(o: float) -> str:
        if o != o:
            name = "NaN"
        elif o == _INFINITY:
            name = "Infinity"
        elif o == -_INFINITY:
            name = "-Infinity"
        else:
            return float.__repr__(o)
        if not allow_nan:
            raise ValueError("Out of range float values are not JSON compliant: " + repr(o))
        return name

    return text


_INFINITY = float("inf")


def _python_encoder(markers: dict[int, Any] | None, default: Callable[[Any], Any], encoder: Callable[[str], str],
                    indent: str, float_text: Callable[[float], str], key_separator: str, item_separator: str,
                    sort_keys: bool, skipkeys: bool) -> Callable[[Any, int], Iterator[str]]:
    """json.encoder's ``_make_iterencode`` with an indent: the same chunks, the same
    errors, one generator per level of nesting as there (so the same depth is too deep).
    The values that hold no others are written inline in each of the three places, as
    json writes them: a helper for them costs one level (``tests/test_fastjson.py``
    compares the depth)."""
    int_text = int.__repr__  # an int subclass (IntEnum) is written as its number

    def encode_list(lst: list[Any] | tuple[Any, ...], level: int) -> Iterator[str]:
        if not lst:
            yield "[]"
            return
        if markers is not None:
            marker = id(lst)
            if marker in markers:
                raise ValueError("Circular reference detected")
            markers[marker] = lst
        level += 1
        newline_indent = "\n" + indent * level
        separator = item_separator + newline_indent
        buf = "[" + newline_indent
        first = True
        for value in lst:
            if first:
                first = False
            else:
                buf = separator
            if isinstance(value, str):
                yield buf + encoder(value)
            elif value is None:
                yield buf + "null"
            elif value is True:
                yield buf + "true"
            elif value is False:
                yield buf + "false"
            elif isinstance(value, int):
                yield buf + int_text(value)
            elif isinstance(value, float):
                yield buf + float_text(value)
            else:
                yield buf
                if isinstance(value, (list, tuple)):
                    chunks = encode_list(value, level)
                elif isinstance(value, dict):
                    chunks = encode_dict(value, level)
                else:
                    chunks = encode_any(value, level)
                yield from chunks
        yield "\n" + indent * (level - 1)
        yield "]"
        if markers is not None:
            del markers[marker]

    def encode_dict(dct: dict[Any, Any], level: int) -> Iterator[str]:
        if not dct:
            yield "{}"
            return
        if markers is not None:
            marker = id(dct)
            if marker in markers:
                raise ValueError("Circular reference detected")
            markers[marker] = dct
        yield "{"
        level += 1
        newline_indent = "\n" + indent * level
        separator = item_separator + newline_indent
        yield newline_indent
        first = True
        for key, value in sorted(dct.items()) if sort_keys else dct.items():
            if isinstance(key, str):
                pass
            elif isinstance(key, float):
                key = float_text(key)
            elif key is True:
                key = "true"
            elif key is False:
                key = "false"
            elif key is None:
                key = "null"
            elif isinstance(key, int):
                key = int_text(key)
            elif skipkeys:
                continue
            else:
                raise TypeError(f"keys must be str, int, float, bool or None, not {key.__class__.__name__}")
            if first:
                first = False
            else:
                yield separator
            yield encoder(key)
            yield key_separator
            if isinstance(value, str):
                yield encoder(value)
            elif value is None:
                yield "null"
            elif value is True:
                yield "true"
            elif value is False:
                yield "false"
            elif isinstance(value, int):
                yield int_text(value)
            elif isinstance(value, float):
                yield float_text(value)
            else:
                if isinstance(value, (list, tuple)):
                    chunks = encode_list(value, level)
                elif isinstance(value, dict):
                    chunks = encode_dict(value, level)
                else:
                    chunks = encode_any(value, level)
                yield from chunks
        yield "\n" + indent * (level - 1)
        yield "}"
        if markers is not None:
            del markers[marker]

    def encode_any(o: Any, level: int) -> Iterator[str]:
        if isinstance(o, str):
            yield encoder(o)
        elif o is None:
            yield "null"
        elif o is True:
            yield "true"
        elif o is False:
            yield "false"
        elif isinstance(o, int):
            yield int_text(o)
        elif isinstance(o, float):
            yield float_text(o)
        elif isinstance(o, (list, tuple)):
            yield from encode_list(o, level)
        elif isinstance(o, dict):
            yield from encode_dict(o, level)
        else:
            if markers is not None:
                marker = id(o)
                if marker in markers:
                    raise ValueError("Circular reference detected")
                markers[marker] = o
            yield from encode_any(default(o), level)
            if markers is not None:
                del markers[marker]

    return encode_any
