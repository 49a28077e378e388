"""Shell analysis, in three wings that import downward only:

* ``syntax`` — parse with tree-sitter (failing closed), decode words, unwrap wrappers,
  the validators; knows nothing of what a command means;
* ``catalog`` — what bastion knows about commands and the finding codes it reports;
* ``meaning`` — what a parsed command does: its paths, targets, checks and the
  analysis that composes them (reads ``syntax`` and ``catalog``).

``layers`` puts the analysis before the engine.
"""
