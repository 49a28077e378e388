"""How a one-shot bastion process (a hook deciding in its own process, ``bastion check``)
starts and ends without paying for a long-lived interpreter's housekeeping.

* :func:`no_collector` switches the cyclic garbage collector off. Loading the decision
  creates some hundred thousand objects, and the collector walks them again and again
  while they load (about a tenth of a fresh hook call); a process that answers once and
  exits frees everything at once anyway.
* :func:`finish` ends the process the way ``sys.exit`` would — other threads joined,
  ``atexit`` handlers run, standard streams flushed (a failed flush of stdout exits with
  120, as Python does) — and then skips the interpreter's teardown, which frees every
  module and object one by one (another tenth). Every file bastion writes is closed by
  then (``with`` blocks), so nothing written is lost.

Neither is used by the warm hook server, the MCP proxy or a library that embeds bastion.
Imports only built-in modules: the hook's thin client calls both.
"""

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NoReturn


def no_collector() -> None:
    """Switch the cyclic garbage collector off for the rest of this short process."""
    import gc

    gc.disable()


def _status(code: object) -> int:
    """The exit status ``sys.exit(code)`` gives (a text is printed on stderr, status 1)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    try:
        sys.stderr.write(f"{code}\n")
    except (OSError, ValueError, AttributeError):
        pass
    return 1


def finish(code: object) -> "NoReturn":
    """End the process with ``code`` as ``sys.exit`` would, without the teardown."""
    import os

    status = _status(code)
    threading = sys.modules.get("threading")
    if threading is not None:
        try:
            threading._shutdown()  # type: ignore[attr-defined]  # what the interpreter does first at exit
        except Exception:  # noqa: BLE001 - as at a normal exit, a thread's failure does not change the status
            pass
    import atexit

    atexit._run_exitfuncs()
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name, None)
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            if name == "stdout" and status == 0:
                status = 120  # Python's own status when flushing stdout at exit fails
    os._exit(status)
