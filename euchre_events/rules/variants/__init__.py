"""One small module per rule set, each a :class:`~euchre_events.rules.variant.Variant`
plugged into the shared engine (rules.md sections 2 to 7), and the two
auctions they share: :mod:`.upcard` (the up-card auction of standard,
two-handed, cutthroat and Buck Euchre, rules.md 2.2-2.4) and :mod:`.bidding`
(the numeric auction of Bid and Ghost Hand Euchre, 7.2 and 5.2).  The rule
sets are listed, by name and alias, in :mod:`euchre_events.rules.registry`."""
