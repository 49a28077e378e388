"""How much a landing lister reads: bounds that keep a decision quick, and a source
beyond them is an ordinary ask (it cannot be listed). Read at call time, so a test may
lower them."""

#: Entries listed per source (folder walk, archive members, git paths, patch files).
MAX_ENTRIES = 10_000
#: Folder depth walked below a copied folder.
MAX_DEPTH = 48
#: A tar archive bigger than this is not read through (a compressed one is decompressed
#: to list it); nor are more than :data:`MAX_UNPACKED_BYTES` of content skipped over.
MAX_ARCHIVE_BYTES = 32 * 1024 * 1024
MAX_UNPACKED_BYTES = 512 * 1024 * 1024
#: A patch file bigger than this is not read.
MAX_PATCH_BYTES = 4 * 1024 * 1024
#: Seconds a ``git`` listing may take.
GIT_TIMEOUT = 2.0
