"""``bastion.fastjson`` against the real ``json``: the same values, the same text, the same
errors (type, message, position), for generated documents both ways and for the hooks
``bastion.validate`` decodes the hook's input with; and it never imports ``json`` until
an error needs json's ``JSONDecodeError``."""

from __future__ import annotations

import io
import json
import math
import subprocess
import sys
from collections.abc import Callable
from enum import IntEnum
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from bastion import fastjson
from bastion.validate import InputError as Refused, _finite, _not_a_constant  # the hooks a hook's input is read with

# ----------------------------------------------------------------------------- helpers


def outcome(run: Callable[[], Any]) -> tuple[Any, ...]:
    """What a call gives, comparable across the two modules: its value's ``repr`` (a
    NaN equals itself there), or its error's type, text and a JSON error's position."""
    try:
        value = run()
    except json.JSONDecodeError as exc:
        return ("JSONDecodeError", str(exc), exc.msg, exc.pos, exc.lineno, exc.colno, exc.doc)
    except (ValueError, TypeError, RecursionError, OverflowError) as exc:
        return (type(exc).__name__, str(exc))
    return ("ok", type(value).__name__, repr(value))


def same(real: Callable[[], Any], fast: Callable[[], Any]) -> None:
    assert outcome(fast) == outcome(real)


def both(name: str, *args: Any, **kwargs: Any) -> None:
    """``fastjson.NAME(...)`` gives what ``json.NAME(...)`` gives."""
    same(lambda: getattr(json, name)(*args, **kwargs), lambda: getattr(fastjson, name)(*args, **kwargs))


class Unknown:
    """A value json cannot write (``default=str`` writes its ``str``)."""

    def __str__(self) -> str:
        return "<unknown>"


class Level(IntEnum):
    HIGH = 3


# ----------------------------------------------------------------------------- values

SURROGATES = st.integers(0xD800, 0xDFFF).map(chr)
CONTROLS = st.integers(0, 0x1F).map(chr)
TEXT = st.text(st.one_of(st.characters(exclude_categories=()), SURROGATES, CONTROLS,
                         st.sampled_from('"\\/\u2028\u2029\x7f\ufeff\U0001f600')), max_size=12)
FLOATS = st.one_of(st.floats(), st.sampled_from([0.0, -0.0, 1e308, -1e308, 5e-324, 1e16, 0.1, math.nan, math.inf,
                                                 -math.inf, 2.0 ** 53]))
INTS = st.one_of(st.integers(), st.sampled_from([0, -1, 2 ** 63, -(2 ** 64), 10 ** 40, True, False]))
SCALARS = st.one_of(st.none(), st.booleans(), INTS, FLOATS, TEXT)
KEYS = st.one_of(TEXT, st.integers(-5, 5), st.sampled_from([None, True, False, 1.5, -0.0, math.nan]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.lists(inner, max_size=3).map(tuple),
    st.dictionaries(TEXT, inner, max_size=4),
    st.dictionaries(KEYS, inner, max_size=3),
), max_leaves=20)
WITH_UNKNOWN = st.recursive(st.one_of(SCALARS, st.builds(Unknown), st.just(Level.HIGH)),
                            lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(TEXT, inner, max_size=3)),
                            max_leaves=10)
SEPARATORS = st.sampled_from([None, (",", ":"), (", ", ": "), (",", ": "), ["; ", "= "]])


@settings(max_examples=400)
@given(value=VALUES, ensure_ascii=st.booleans(), separators=SEPARATORS, sort_keys=st.booleans(),
       allow_nan=st.booleans(), skipkeys=st.booleans(), check_circular=st.booleans())
def test_dumps_writes_what_json_writes(value: Any, ensure_ascii: bool, separators: Any, sort_keys: bool,
                                       allow_nan: bool, skipkeys: bool, check_circular: bool) -> None:
    options = {"ensure_ascii": ensure_ascii, "separators": separators, "sort_keys": sort_keys,
               "allow_nan": allow_nan, "skipkeys": skipkeys, "check_circular": check_circular}
    both("dumps", value, **options)


@settings(max_examples=200)
@given(value=WITH_UNKNOWN, ensure_ascii=st.booleans(), use_default=st.booleans(), sort_keys=st.booleans())
def test_dumps_of_values_json_cannot_write(value: Any, ensure_ascii: bool, use_default: bool, sort_keys: bool) -> None:
    options: dict[str, Any] = {"ensure_ascii": ensure_ascii, "sort_keys": sort_keys, "default": str if use_default else None}
    both("dumps", value, **options)


@settings(max_examples=300)
@given(value=VALUES, ensure_ascii=st.booleans())
def test_loads_reads_what_json_reads(value: Any, ensure_ascii: bool) -> None:
    try:
        text = json.dumps(value, ensure_ascii=ensure_ascii)
    except (TypeError, ValueError):
        return  # keys json cannot write
    both("loads", text)
    for spaced in (f" \t\n{text}\r\n ", f"{text} x", f"\n{text}\n{text}"):
        both("loads", spaced)


@settings(max_examples=400)
@given(text=st.text(st.sampled_from(' \t\n\r{}[]:,"\\/0123456789.eE+-truefalsnNIfiyu\ud800\x00\x1fé'), max_size=24))
def test_loads_of_near_json_text_fails_as_json_fails(text: str) -> None:
    both("loads", text)


@settings(max_examples=200)
@given(value=VALUES, cut=st.integers(0, 200), junk=st.text(max_size=3))
def test_loads_of_broken_documents(value: Any, cut: int, junk: str) -> None:
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        return
    broken = text[:cut] + junk + text[cut + 1:]
    both("loads", broken)


@pytest.mark.parametrize("text", [
    "", " ", "\n\n  ", "[", "]", "{", '{"a"', '{"a":', '{"a":1', '{"a":1,}', "[1,]", "[1 2]", '{"a" 1}', "{1: 2}",
    '"abc', '"\\x"', '"\\u12"', '"\\ud800"', '"a\x00b"', '"tab\there"', "nul", "tru", "NaN", "-Infinity", "Infinity",
    "-", "01", "1.", ".5", "1e", "1e5", "-0", "-0.0", "1" * 5000, "1e400", "[1,\n2,\n x]", "\ufeff[]", "[] []",
    "[]\n\n ,", '{"a": 1, "a": 2}', '{"__proto__": 1}', "[" * 50 + "]" * 50, '"\\ud83d\\ude00"',
])
def test_loads_of_chosen_documents(text: str) -> None:
    both("loads", text)


@pytest.mark.parametrize("data", [
    b"", b"[]", b" {\"a\": 1} ", b"\xef\xbb\xbf[1]", '["é"]'.encode("utf-16"), '["é"]'.encode("utf-16-le"),
    '["é"]'.encode("utf-16-be"), '["é"]'.encode("utf-32"), '["é"]'.encode("utf-32-le"), '["é"]'.encode("utf-32-be"),
    b"1", b"12", b"\x001", b"1\x00", b"[\x00\x00]", b"[\x00\x00\x00]\x00\x00\x00", b"\xff\xfe", b'"\xff"', b'["\xed\xa0\x80"]', b"\x00\x00\x00[",
    bytearray(b'{"b": [true]}'),
])
def test_loads_of_bytes_detects_their_encoding_as_json_does(data: bytes) -> None:
    both("loads", data)  # a UnicodeDecodeError is a ValueError


def test_loads_refuses_what_is_not_text() -> None:
    both("loads", 12)
    both("loads", None)


# ----------------------------------------------------------------------------- hooks


def hooked(decode: Callable[[str], Any], text: str) -> tuple[Any, ...]:
    try:
        return outcome(lambda: decode(text))
    except Refused as exc:
        return ("Refused", str(exc))


@settings(max_examples=200)
@given(text=st.one_of(st.text(st.sampled_from(' {}[]:,"0123456789.eE+-NaInfity'), max_size=20),
                      VALUES.map(lambda v: json.dumps(v, default=str, skipkeys=True))))
def test_the_hooks_validate_decodes_with(text: str) -> None:
    real = json.JSONDecoder(parse_constant=_not_a_constant, parse_float=_finite)
    fast = fastjson.Decoder(parse_constant=_not_a_constant, parse_float=_finite)
    assert hooked(fast.decode, text) == hooked(real.decode, text)
    assert hooked(lambda t: fastjson.loads(t, parse_constant=_not_a_constant, parse_float=_finite), text) == \
        hooked(lambda t: json.loads(t, parse_constant=_not_a_constant, parse_float=_finite), text)


@pytest.mark.parametrize("text", ['{"a": 1, "b": [2, {"c": 3}]}', "[1.5, 2]", '{"a": {}}', "[]"])
def test_object_hooks_parse_int_and_raw_decode(text: str) -> None:
    for hooks in ({"object_hook": sorted}, {"object_pairs_hook": list}, {"parse_int": float}, {"parse_float": str}):
        both("loads", text, **hooks)
    same(lambda: json.JSONDecoder().raw_decode(text + " tail", 0), lambda: fastjson.Decoder().raw_decode(text + " tail", 0))
    same(lambda: json.load(io.StringIO(text)), lambda: fastjson.load(io.StringIO(text)))


# ----------------------------------------------------------------------------- errors and edges


def test_circular_references_raise_as_json_does() -> None:
    loop: list[Any] = [1]
    loop.append(loop)
    ring: dict[str, Any] = {}
    ring["me"] = [ring]
    for value in (loop, ring, {"x": loop}):
        both("dumps", value)
        both("dumps", value, check_circular=False)
        both("dumps", value, indent=1)
        both("dumps", value, indent=1, check_circular=False)
    unknown = Unknown()
    both("dumps", [unknown], default=lambda o: [o])
    both("dumps", [unknown], default=lambda o: [o], indent=2)


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, [1.0, math.nan], {"k": -math.inf}])
def test_allow_nan_false_raises_as_json_does(value: Any) -> None:
    both("dumps", value, allow_nan=False)
    both("dumps", value, allow_nan=False, ensure_ascii=False, separators=(",", ":"))
    both("dumps", value, allow_nan=False, indent=1)


@pytest.mark.parametrize("value", ["plain", "é\u2028\ud800\U0001f600\x00\"\\", Level.HIGH, {Level.HIGH: 1},
                                   {1.5: 1, None: 2, False: 3}, {(1, 2): 3}, {"b": 1, 2: 2}, [b"bytes"],
                                   type("S", (str,), {})("sub"), type("F", (float,), {})(1.25)])
def test_odd_values(value: Any) -> None:
    for options in ({}, {"ensure_ascii": False}, {"sort_keys": True}, {"skipkeys": True}, {"default": repr},
                    {"indent": 1, "sort_keys": True}, {"indent": "  ", "skipkeys": True}):
        both("dumps", value, **options)


INDENTS = st.sampled_from([0, 1, 2, 4, "", "\t", " "])


@settings(max_examples=400)
@given(value=VALUES, indent=INDENTS, ensure_ascii=st.booleans(), separators=SEPARATORS, sort_keys=st.booleans(),
       allow_nan=st.booleans(), skipkeys=st.booleans(), check_circular=st.booleans())
def test_indented_text_is_what_json_writes(value: Any, indent: int | str, ensure_ascii: bool, separators: Any,
                                          sort_keys: bool, allow_nan: bool, skipkeys: bool, check_circular: bool) -> None:
    """3.11 writes indented text in Python: fastjson carries that encoder (a session's
    first hook call writes its state file indented)."""
    options = {"indent": indent, "ensure_ascii": ensure_ascii, "separators": separators, "sort_keys": sort_keys,
               "allow_nan": allow_nan, "skipkeys": skipkeys, "check_circular": check_circular}
    both("dumps", value, **options)


@settings(max_examples=100)
@given(value=WITH_UNKNOWN, indent=INDENTS, use_default=st.booleans())
def test_indented_values_json_cannot_write(value: Any, indent: int | str, use_default: bool) -> None:
    options: dict[str, Any] = {"indent": indent, "default": str if use_default else None}
    both("dumps", value, **options)


def _deepest(run: Callable[[int], Any]) -> int:
    """The deepest nesting ``run`` handles before ``RecursionError``."""
    low, high = 1, 20_000
    while low < high:
        middle = (low + high + 1) // 2
        try:
            run(middle)
        except RecursionError:
            high = middle - 1
        else:
            low = middle
    return low


def _nested(depth: int) -> Any:
    value: Any = {}
    for level in range(depth):
        value = {"a": value} if level % 2 else [value]
    return value


def test_documents_nest_as_deep_as_with_json() -> None:
    """The same Python frames lie between the caller and ``_json``: a document at the
    recursion limit fails, or not, as it does with json."""
    text = lambda n: "[" * n + "]" * n  # noqa: E731
    assert _deepest(lambda n: fastjson.loads(text(n))) == _deepest(lambda n: json.loads(text(n)))
    assert _deepest(lambda n: fastjson.load(io.StringIO(text(n)))) == _deepest(lambda n: json.load(io.StringIO(text(n))))
    fast, real = fastjson.Decoder(parse_float=_finite), json.JSONDecoder(parse_float=_finite)
    assert _deepest(lambda n: fast.decode(text(n))) == _deepest(lambda n: real.decode(text(n)))
    assert _deepest(lambda n: fastjson.dumps(_nested(n))) == _deepest(lambda n: json.dumps(_nested(n)))
    assert (_deepest(lambda n: fastjson.dumps(_nested(n), ensure_ascii=False, sort_keys=True))
            == _deepest(lambda n: json.dumps(_nested(n), ensure_ascii=False, sort_keys=True)))
    assert (_deepest(lambda n: fastjson.dumps(_nested(n), indent=1, sort_keys=True))
            == _deepest(lambda n: json.dumps(_nested(n), indent=1, sort_keys=True)))


# ----------------------------------------------------------------------------- without json


def _fresh(code: str) -> str:
    done = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, timeout=60, check=True)
    return done.stdout.strip()


def test_a_fresh_process_decodes_and_encodes_without_importing_json() -> None:
    code = ("import sys\nfrom bastion import fastjson\n"
            "v = fastjson.loads(' {\"a\": [1, 2.5, NaN, \"\\\\u00e9\"]} ')\n"
            "t = fastjson.dumps(v, ensure_ascii=False, sort_keys=True)\n"
            "assert fastjson.dumps(v, indent=1) == '{\\n \"a\": [\\n  1,\\n  2.5,\\n  NaN,\\n  \"\\\\u00e9\"\\n ]\\n}'\n"
            "d = fastjson.Decoder(parse_float=float).decode('[1.5]')\n"
            "print(t, d, sorted(m for m in sys.modules if m == 're' or m.startswith('json')))")
    assert _fresh(code) == '{"a": [1, 2.5, NaN, "é"]} [1.5] []'


@pytest.mark.parametrize("text", ["[1 2]", '{"a" 1}', '"\\x"', "[1,", "", "[] x", '"a\x01"'])
def test_a_fresh_process_raises_jsons_own_error(text: str) -> None:
    """3.11's scanner finds JSONDecodeError only in an imported ``json.decoder``: the
    first error imports it, and the error is the one json raises, with no other behind it."""
    code = ("import sys\nfrom bastion import fastjson\n"
            f"try:\n    fastjson.loads({text!r})\n"
            "except fastjson.JSONDecodeError as exc:\n"
            "    import json\n"
            "    print(type(exc) is json.JSONDecodeError, repr(exc.__context__), repr(exc.msg), exc.pos, exc.lineno, exc.colno)")
    with pytest.raises(json.JSONDecodeError) as caught:
        json.loads(text)
    exc = caught.value
    assert _fresh(code) == f"True {exc.__context__!r} {exc.msg!r} {exc.pos} {exc.lineno} {exc.colno}"


def test_a_thread_importing_json_while_a_scan_fails_changes_nothing() -> None:
    """The warm server decides calls in threads and has not imported ``json``: a scan
    that fails before ``json.decoder`` exists, while another thread imports it, still
    raises json's own error (not the scanner's ``SystemError``)."""
    code = (
        "import sys, threading\nfrom bastion import fastjson\n"
        "def other_thread_imports_json():\n    import json.decoder  # noqa: F401\n"
        "def tracer(frame, event, arg):\n"
        "    if event == 'exception' and frame.f_code is fastjson.Decoder.raw_decode.__code__ and arg[0] is SystemError:\n"
        "        thread = threading.Thread(target=other_thread_imports_json)\n"
        "        thread.start()\n        thread.join()\n"
        "    return tracer\n"
        "sys.settrace(tracer)\n"
        "try:\n    fastjson.loads('[1 2]')\n"
        "except BaseException as exc:\n    sys.settrace(None)\n    print(type(exc).__name__, exc)\n")
    assert _fresh(code) == "JSONDecodeError Expecting ',' delimiter: line 1 column 4 (char 3)"


def test_without_the_accelerator_it_is_json_itself() -> None:
    """Another interpreter without ``_json``: everything goes to the real json."""
    code = ("import sys\nsys.modules['_json'] = None\nimport json\nfrom bastion import fastjson\n"
            "values = [{'a': [1, 2.5, None, True, 'é\\ud800']}, 'x', [float('nan')]]\n"
            "same = [fastjson.dumps(v) == json.dumps(v) and fastjson.dumps(v, ensure_ascii=False, sort_keys=True)\n"
            "        == json.dumps(v, ensure_ascii=False, sort_keys=True) and repr(fastjson.loads(json.dumps(v)))\n"
            "        == repr(json.loads(json.dumps(v))) for v in values]\n"
            "errors = []\n"
            "for t in ['[1 2]', '', '[] x']:\n"
            "    for loads in (json.loads, fastjson.loads, fastjson.Decoder(parse_float=float).decode):\n"
            "        try:\n            loads(t)\n"
            "        except json.JSONDecodeError as exc:\n            errors.append(str(exc))\n"
            "print(fastjson._json, all(same), len(errors), len(set(errors)))")
    assert _fresh(code) == "None True 9 3"
