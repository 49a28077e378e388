"""The hook transport: how one ``bastion hook CLIENT`` call is answered.

* ``client`` — the thin hook process: hands the call to the warm server, else decides
  here (imports only built-in modules at the top);
* ``server`` — the per-user decision server that keeps the engine loaded;
* ``run`` — the decision flow of one call, the same in the server and in-process;
* ``deadline`` — every call answered within :data:`DEADLINE`, fail-closed past it;
* ``protocol`` — :class:`~bastion.hook.protocol.ClientAdapter`, what each client's
  adapter (``adapters.claude_code``, ``codex``, ``gemini``) provides, and ``Reply``.

The deadline is defined here, not in ``deadline``: the thin client needs it and must
stay cheap to import, so this module imports nothing.
"""

#: Seconds bastion gives itself to answer one hook call, here or in the server (well
#: below the 30 s hook timeout ``bastion install`` writes): a hook the client gives up on
#: has no answer, and Codex and Gemini then run the tool. Past it the answer is the
#: client's own fail-closed one (``hook.deadline``).
DEADLINE = 5.0
#: The longest deadline ``BASTION_HOOK_DEADLINE`` may ask for: still below the 30 s
#: hook timeout, with room for the interpreter's start, so a client always gets an answer.
MAX_DEADLINE = 20.0
#: How much longer the thin client waits for the server than the server's own deadline,
#: for the server's fail-closed answer to reach it.
GRACE = 1.0

#: The agent CLIs ``bastion hook CLIENT`` answers, and the adapter module of each
#: (``bastion.adapters.<module>``). Here because the thin client needs the names too.
CLIENTS = {"claude-code": "claude_code", "codex": "codex", "gemini": "gemini"}


def deadline_seconds(env):
    """The deadline for one call: ``BASTION_HOOK_DEADLINE`` (seconds, at most
    :data:`MAX_DEADLINE`) or :data:`DEADLINE`."""
    value = (env.get("BASTION_HOOK_DEADLINE") or "").strip()
    try:
        seconds = float(value) if value else DEADLINE
    except ValueError:
        return DEADLINE
    if not seconds > 0:  # zero, negative, NaN
        return DEADLINE
    return min(seconds, MAX_DEADLINE)
