"""The core that knows no tool: what every layer shares, at the bottom of the import graph.

* ``context`` — the ``Layer`` protocol, the ``Context`` of one call with its public memo
  (``ctx.once``) and typed fact accessors, and the ``Facts`` protocol that per-kind
  providers implement (composed in ``bastion.providers``);
* ``mode`` — the one mode resolver: a mode field as a ``Mode``, and which one applies.

Both import only ``bastion.model`` (and types under ``TYPE_CHECKING``). Nothing is
imported here, so importing the package costs nothing.
"""
