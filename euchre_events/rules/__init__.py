"""The rules of the Euchre family, pure (no I/O): :mod:`.cards` (codes, decks,
trump order, the one trick-ranking table), :mod:`.table` (the working state,
typed: phases, up-card status, each variant's frozen auction and contract
state; and what can be wrong), :mod:`.variant` (the base every rule set plugs
into), :mod:`.variants` (the six rule sets and their two shared auctions),
:mod:`.registry` (variants by name), :mod:`.engine` (the fold: apply, legal
actions, the trick engine) and :mod:`.simulate` (random legal games for tests
and fixtures)."""
