"""EGN (Euchre Game Notation) and EMN (Euchre Match Notation): reading and writing.

EGN is a JSON format for standard four-player Euchre (rules.md section 2); an
EMN file groups several EGN games into a match.  What a reader must know about
the format is in ``docs/egn.md``; in short:

* seats are ``0..3`` clockwise (team 0 = seats 0 and 2), scores are points per
  team ``[team 0, team 1]``;
* a deal's ``calls`` start at the dealer's left: indices 0-3 are round 1
  (``Pass`` / ``Order``, older writers ``PickUp``, ``Alone``, ``Call``), 4-7
  round 2 (``Pass`` or a suit letter);
* each trick lists its cards in the order played, **leader first**, without
  seats: the reader finds the first leader and each trick's winner with our
  rules engine (rules.md 1.2, 1.3, 2.5) and so the seat of every card;
* most records do not give the dealt hands: each hand is rebuilt from the
  cards its seat played (plus the dealer's exchange, see
  :func:`read_egn_dict`); a card the record does not state stays ``"??"``.

Version 1.0.0 files (``player_cards``, ``kitty``, ``initialLead``,
``calls_annotations``, ``tricks_annotations``) and the v1.1 writers'
snake_case keys (``initial_state``, ``up_card``...) are upgraded in memory to
the 1.4 layout before they are checked against the schema.  The schemas are
shipped in ``euchre_events/schemas/``.

The modules:

* :mod:`.schema`: file types, schema checks (:func:`validate_egn`,
  :func:`validate_emn`) and the upgrade of old layouts (:func:`upgrade_egn`);
* :mod:`.ruleset`: the EGN ruleset and our standard options, both ways;
* :mod:`.read`: :func:`read_egn_file` / :func:`read_egn_text` /
  :func:`read_egn_dict` (a file, a string or a parsed JSON document to
  validated :class:`~euchre_events.formats.Record` objects, one per game,
  through a :class:`~euchre_events.formats.builder.RecordBuilder`);
  :func:`read_egn_file_partial` reads the games of a match one by one,
  keeping the good ones;
* :mod:`.write`: :func:`write_egn` (our events, standard Euchre, to an EGN
  1.4 document; a game read from EGN as it was read, derived fields only
  ``with_derived``), :func:`egn_to_json`, :func:`write_egn_file`,
  :func:`write_emn` (several games as one EMN match);
* :mod:`.asread`: what the reader keeps so that the writer writes a record
  back as it was read (the same EGN baseline);
* :mod:`.binary` and :mod:`.packed`: binary EGN (condensed ``.egnb``,
  expanded ``.expanded.egnb``; protobuf from the shipped ``.proto``) and
  bit-packed deals, both ways (:func:`read_egnb_file`, :func:`write_egnb`);
* :mod:`.audit`: :func:`audit_egn_by_deal`, the audit of a game with
  impossible deals.

Errors are :class:`~euchre_events.formats.RecordError` naming the file, the
deal (numbered from 1, as in our events), the event and the reason.
"""
from euchre_events.formats.egn.audit import (audit_egn_by_deal, by_deal_report, egn_game_by_deal, egn_in_part,
                                             impossible_words)
from euchre_events.formats.egn.read import (ROUND1_ACCEPT, read_egn_dict, read_egn_file,
                                            read_egn_file_partial, read_egn_text, read_egnb_file)
from euchre_events.formats.egn.schema import (EGN_FILE_TYPE, EGN_WRITE_VERSION, EMN_FILE_TYPE,
                                              upgrade_egn, validate_egn, validate_emn)
from euchre_events.formats.egn.write import (egn_to_json, emn_to_json, write_egn, write_egn_file,
                                             write_egnb, write_emn)

__all__ = ["EGN_FILE_TYPE", "EMN_FILE_TYPE", "EGN_WRITE_VERSION", "ROUND1_ACCEPT",
           "validate_egn", "validate_emn", "upgrade_egn", "read_egn_file", "read_egn_file_partial",
           "read_egn_text", "read_egn_dict", "read_egnb_file", "write_egnb", "write_egn", "write_egn_file", "egn_to_json",
           "write_emn", "emn_to_json", "egn_in_part",
           "audit_egn_by_deal"]
