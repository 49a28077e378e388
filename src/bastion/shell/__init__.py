"""Shell analysis: parse with tree-sitter (failing closed), decode, unwrap, classify."""
