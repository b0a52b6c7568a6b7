"""One small module per rule set, each a :class:`~euchre_events.rules.variant.Variant`
plugged into the shared engine (rules.md sections 2 to 7).  They are listed,
by name and alias, in :mod:`euchre_events.rules.registry`."""
