"""Each coding agent's screen, as words: one module per agent whose own rendering was looked up (Claude Code,
Codex) and a default for the others (`generic`). Each has `said(Exchange) -> Said`, the line its screen showed for
a tool call, and `edits(Exchange) -> list[FileEdit]`, what the call changed in files. A dialect's record names its
module (`Dialect.screen` in viewer/formats/registry.py); viewer/policy/onscreen.py asks it.

They live in the policy because they decide what the default view shows of a call (its line, never its full
arguments or output), and the policy may read only the model and the registry: a screen reads the call's
arguments and reply as the model holds them, and the log's own record beside a reply from the reply's source."""
