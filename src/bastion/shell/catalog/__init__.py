"""What bastion knows about commands (the catalog, the long-tail CLI specs) and the
finding codes it reports (``intents``)."""
