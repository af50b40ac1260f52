"""A game resumed after a crash in the middle of a vote calls the vote again — «Vem röstar på
spelare 7? … NU!», "Gleichstand. Spieler 4, der letzte Tote, entscheidet.", «Szavazzatok … Most!»
— and the hands go up on the call the table hears now, while the phones are still coming back.
So the window is whole again, not what the journal's last mark said was left: a German table's
last dead, who decides a tie (seed 003), had 2 s after a `kill -9` and heard «Spieler 4 hat nicht
rechtzeitig entschieden» before his phone had reconnected. A speech still gets only its rest."""

from __future__ import annotations

from narrator.config import parse_config
from narrator.flow.effects import Timer
from narrator.live import LiveSession

# a mark for every timer: whichever one runs at the crash had 2 s left by the journal
ALMOST_OVER = {n: 2.0 for n in range(1, 40)}


def _cfg(variant: str, lang: str, seats: int, roles: str, timers: str = ""):
    return parse_config(f'variant = "{variant}"\nlanguage = "{lang}"\nseats = {seats}\n[dealing]\nroles = {{ {roles} }}\n'
                        f'[timers]\n{timers}\n[input]\nengine = "none"\n', "club.toml")


def _resumed(cfg, lines: list[str]) -> tuple[str, list[Timer]]:
    """The game played to the crash by these lines, then resumed: its state and the timer it runs."""
    probe = LiveSession(cfg, None)
    events = [probe.session.dealing_event()]
    probe.start_effects()
    probe.session.feed(events[0])
    for line in lines:
        ev = probe.session.parse(line)
        events.append(ev)
        probe.session.feed(ev)
    live = LiveSession(cfg, None)
    first = live.start_effects(replayed=events, timer_marks=ALMOST_OVER)
    return live.game.state, [e for e in first if isinstance(e, Timer)]


GERMAN = ["tap 1 4", "tap 6 4", "timeout",                          # night: player 4 dies
          "timeout",                                                # the discussion
          "tap 1 2", "tap 6 2", "tap 5 2", "tap 2 6", "tap 3 6", "tap 7 6"]  # pointing: 2 and 6


def test_the_last_dead_deciding_a_german_tie_gets_the_whole_window_after_a_crash():
    cfg = _cfg("grundregeln", "de", 7, '1 = "mafia", 6 = "mafia"', "vote = 12")
    state, timers = _resumed(cfg, GERMAN + ["timeout", "timeout",    # the two defences
                                            "tap 1 2", "tap 6 2", "tap 5 2", "tap 2 6", "tap 3 6", "tap 7 6"])
    assert state == "tie_break"
    assert timers == [Timer("vote", 12)]


def test_a_defence_cut_by_a_crash_still_gets_only_its_rest():
    cfg = _cfg("grundregeln", "de", 7, '1 = "mafia", 6 = "mafia"', "vote = 12")
    state, timers = _resumed(cfg, GERMAN)
    assert state == "defences"
    assert timers == [Timer("defence", 2.0)]


def test_a_swedish_name_called_again_after_a_crash_has_its_five_seconds_from_the_new_nu():
    cfg = _cfg("sverige", "sv", 8, '1 = "mafia", 5 = "mafia", 3 = "doctor"', "hand_vote = 5")
    lines = ["timeout", "timeout",                                  # night zero
             "nominate 4 by 3", "nominate 8 by 2", "timeout", "timeout", "timeout",  # time up, no extension, last call
             "timeout", "timeout"]                                  # the two speeches
    state, timers = _resumed(cfg, lines)
    assert state == "hand_vote"
    assert timers == [Timer("hand_vote", 5)]


def test_a_hungarian_support_vote_on_a_count_of_three_is_whole_again():
    cfg = _cfg("hungariq", "hu", 8, '1 = "mafia", 2 = "protected_mafia", 3 = "inspector"')
    live_state, timers = _resumed(cfg, ["timeout", "timeout", "say player 4 accuses player 5"])
    assert live_state == "support_vote"
    assert timers == [Timer("support_vote", 5)]
