"""The rules of the Euchre family, pure (no I/O): :mod:`.cards` (codes, decks,
trump order), :mod:`.table` (the working state and what can be wrong),
:mod:`.variant` (the base every rule set plugs into), :mod:`.variants` (the six
rule sets), :mod:`.registry` (variants by name), :mod:`.engine` (the fold:
apply, legal actions, the trick engine) and :mod:`.simulate` (random legal
games for tests and fixtures)."""
