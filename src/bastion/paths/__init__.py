"""Which paths are special to bastion, in one table (:mod:`.table`) read by every check.

Credential stores, secret files, protected files and folders, startup files, persistence
targets and removal targets are rows of ``table.ROWS``; :mod:`.match` answers the
questions the shell analysis, the file checks, taint and the sandbox plan ask of a path.
This package imports nothing of bastion but :mod:`bastion.named_tuple` (which imports
nothing of bastion), so anything may import it.
"""
