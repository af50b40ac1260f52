"""The moment as the rules describe it: what the table is doing, what each seat is asked, what the
host may do. One description, published by the game (`BaseGame.moment()`, `BaseGame.seat_ask()`);
the phones, the host screen and the console render it and decide nothing of the rules themselves.

Each day procedure supplies its own part (grundregeln's pointing bars a player's own button,
hungariq's day accuses, a Swedish day offers its extension and votes by hand); the shared night
supplies the night's (game_night.py). Plain frozen data, no I/O.

A seat's own recorded vote is worded by the rules too (`BaseGame.voted_words`, by the vote
record's round: grundregeln's pointing, hungariq's support and execution votes).

Leak-free night: at night `seat_ask` has the same shape for every seat, whatever his role (the
step's question and its choices, nothing counted, nothing barred, no answer), and the table's
`Moment` carries nothing the narrator does not say aloud (the step's name, the role it calls).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from narrator.rules.roles import MAFIA, team_of

# the public timer names of a Swedish day's time extension (seed 000 Tid)
EXTENSION_OFFER, EXTENSION = "extension_offer", "extension"

# Moment.phase: the coarse part of the game an adapter must tell apart (a night's frames hide
# who is awake; the setup and the end ask nothing of the rules)
PHASES = ("setup", "night", "day", "over")
# Moment.answer: how the counted seats give their answer now, for the words around it
ANSWERS = ("vote", "point", "hand", "choose")


@dataclass(frozen=True)
class Moment:
    """What the whole table may know of the moment: the same for every seat."""

    phase: str  # one of PHASES
    # the heading's [phone] key: "state_<screen state>" ("state_pointing", "state_vote_call",
    # "state_extension_offer"); at night "state_night", "night", "night_choose" or "night_identify"
    name: str
    subject: int | None  # the one player the moment is about (a speaker, the accused, the decider)
    step: str | None  # the night step's name (the narrator calls it aloud)
    role: str | None  # the role an identify step wakes (said aloud too)
    ask: str | None  # the question on the phones: "seat", "yes_no", "extension", a list's name ("manner"), None
    choices: tuple[int, ...]
    by_vote: bool  # the question is the day's vote: on the phones only where the phones vote
    vote: tuple[str, tuple[int, ...]] | None  # the open ballot (kind, candidates), phones or hands
    voters: tuple[int, ...]  # whose answers are counted now (by day; never at night)
    answer: str  # one of ANSWERS: "point" (grundregeln's pointing), "hand" (a Swedish hand), "choose" (a kamikaze)
    decider: int | None  # one seat decides alone (grundregeln's tie: the last dead, seed 003)
    nominations: tuple[int, ...]  # the day's nominees while they are in play
    accusing: bool  # the rules accuse, not nominate (hungariq, seed 001): the screens say "accused"
    nominator_named: bool  # a nomination is its nominator's (seed 000): the host names him too
    extension: str | None  # EXTENSION_OFFER while the table is asked for the extension, EXTENSION while it runs
    host: tuple[str, ...]  # the game's inputs the host screen offers now (before pause and reissue)
    penalties: bool  # the referee's fouls, disqualification and defeat exist in these rules (seed 004)
    # a vote that calls its candidates one at a time (classic, seed 004 §4.4): the candidates in
    # the order called, and the index of the one called now; () and None otherwise
    called: tuple[int, ...] = ()
    calling: int | None = None
    # the day's one time extension has been granted (seed 000 Tid): a request now is "already used"
    extension_used: bool = False
    # the candidate every vote not cast goes to when the open vote is counted (classic, seed 004
    # §4.4 «If player hasn't voted his vote goes to last player»); None where silence counts for nobody
    silent_to: int | None = None


@dataclass(frozen=True)
class SeatAsk:
    """What one seat's phone is asked now. At night the same for every seat."""

    seat: int
    kind: str | None  # the question this seat answers now (Moment.ask), None when it is not put to him
    choices: tuple[int, ...]
    barred: tuple[int, ...]  # of the open ballot's candidates, those shown to him but not his to choose
    counted: bool  # his answer is awaited and counted now
    answer: tuple[int | None, bool | None] | None  # his answer on the open ballot, where the game has one
    # his vote is in, in the day's round of votes that runs or ran last (classic's calls in turn:
    # for any name called so far); False at night
    voted: bool = False


@dataclass(frozen=True)
class SeatKnows:
    """What one seat knows from the deal, for his own eyes only (his phone's held-down area, the hot
    seat): his role, and a mafioso his partners (the mafia know each other, as the console's
    reveal and the night-zero meeting tell them). () for every other seat. An adapter that sends
    it pads it as it pads the role itself: the same size for every seat."""

    seat: int
    role: str
    partners: tuple[int, ...]
    mafia: bool = False  # he is one of the mafia: a lone one is told he is alone, not given an empty list

    @classmethod
    def of_deal(cls, roles: Mapping[int, str], seat: int) -> "SeatKnows":
        """What `seat` knows from a deal (seat -> role; a seat not in it is a citizen): the game's
        own, or the one the phones show before it reaches the game (dealt, not yet Ready)."""
        role = roles.get(seat, "citizen")
        mafia = team_of(role) == MAFIA
        partners = tuple(s for s in sorted(roles) if s != seat and team_of(roles[s]) == MAFIA) if mafia else ()
        return cls(seat=seat, role=role, partners=partners, mafia=mafia)


__all__ = ["ANSWERS", "EXTENSION", "EXTENSION_OFFER", "Moment", "PHASES", "SeatAsk", "SeatKnows"]
