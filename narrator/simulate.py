"""`narrator simulate`: many complete games with random legal inputs, checked against rule invariants.

It is the project's fuzzing harness and the club's balance report at once: win rates per side
under the chosen options, and proof that no random game breaks a rule (nobody dead acts, every
game ends, refused input changes nothing, the protocol replays to the same game, classic's every
call heard with one "Stop." — at a table whose scorer types the fists too, `ScorerTable`).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from functools import cache

from .flow.effects import Record, Reject, Say, Timer
from .flow.game import machine_for
from .flow.moment import EXTENSION_OFFER
from .flow.events import Deal, Disqualify, EndSpeech, Extend, Foul, Leave, Nominate, Revoke, Tap, Timeout
from .flow.days import Game
from .protocol import entries, inputs_of
from .rules.dealing import deal
from .rules.roles import MAFIA, team_of
from .rules.variants import VARIANTS, Variant

MAX_EVENTS = 20000
# who acts in each protocol entry: none of them may be dead at that moment (the tie-break of
# grundregeln and a dying kamikaze's choice are the rules' own exceptions, recorded apart)
ACTS = {"nomination": "by", "vote": "voter", "shot_fired": "by", "check": "by", "revocation": "by",
        "protect": "by", "block": "by", "watch": "by", "accusation": "by"}

# night choices a player may change until the step closes (a check is final)
CHANGEABLE = {"shoot", "kill_alone", "protect", "block", "mafia_vote", "sarika"}


def defaults(variant: Variant) -> tuple[dict, dict]:
    return (
        {k: o.default for k, o in variant.rules.items()},
        {k: o.default for k, o in variant.timers.items()},
    )


IMMUTABLE = {"out", "variant", "rules", "timers", "role_counts", "steps", "n", "fixed_night_steps", "votes_on_phones"}


@cache
def unseen(cls: type, variant_name: str) -> frozenset[str]:
    """What `snapshot` need not repr: the IMMUTABLE, the seats (compared field by field below:
    the dict's repr is only the Seat objects' addresses), and the names the shared phase machine
    sets on every game it holds (its triggers and `is_` tests, the same for the game's whole
    life) — their repr was half of `snapshot`'s cost, and it runs twice for every refused input."""
    m = machine_for(cls, variant_name)
    return frozenset(IMMUTABLE | {"seats", "trigger", "may_trigger"} | {n for e in m.events for n in (e, "may_" + e)}
                     | {"is_" + s for s in m.states})


def snapshot(g) -> dict:
    """Everything that makes up the game's state, to prove a refused input changed nothing."""
    skip = unseen(type(g), g.variant.name)
    state = {k: repr(v) for k, v in vars(g).items() if k not in skip}
    state["seats"] = tuple((st.role, st.alive, st.fouls, st.skip_next_speech, st.lover, st.kamikaze, st.pardoned)
                           for st in g.seats.values())
    return state


TRIAL_STATES = {"support_vote", "debate", "accused_last_word", "execution_vote"}


class DayClock:
    """A day's clock that a trial holds (hungariq, seed 001), run on a virtual clock as the live
    session runs it on the real one (`LiveSession._clocked`): the core has no clock, it only says
    which timer is the day's (`Timer(hold=True)`) and when it goes on with what it had
    (`resume=True`). Time passes before every input — a random part of what the running timer has
    left, all of it for a Timeout — and the clock's invariants are checked at every timer:

    - a clock goes on (resume) only where it was held, never from nothing (it would start full);
    - a day's clock starts from full once a day, never again the same day;
    - the day's time never grows: what it has left only goes down, over the whole day;
    - a trial never uses day time: while an accusation is tried the day's clock is held (the
      running timer is the trial's), and it goes on with exactly what it had when it was held;
    - the accusations run on the day's clock (the endgame of three has none), and a night forgets it.

    It draws on its own random stream, so a game is the same game with or without it."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.reset()

    def reset(self) -> None:
        """A new game: nothing of the last one's clock."""
        self.running: tuple[str, float] | None = None  # the running timer: name, seconds left
        self.clock: str | None = None  # the name of the running or held clock
        self.held: float | None = None  # what the held clock had when the trial began
        self.left: float | None = None  # the day's time left, as last known
        self.started_day: int | None = None  # the day whose clock started from full

    def passes(self, ev) -> None:
        """Time passes until `ev` comes: a Timeout comes when the running timer has run out."""
        if self.running is None:
            return
        name, left = self.running
        used = left if isinstance(ev, Timeout) else left * self.rng.random() * 0.2
        self.running = (name, left - used)
        if name == self.clock:
            self.left = left - used

    def timers(self, g, effects: list, violations: list[str]) -> None:
        for e in effects:
            kind = type(e)
            if kind is Timer:
                self._timer(g, e, violations)
            elif kind is Record and e.entry.get("phase") == "night":
                self.clock = self.held = self.left = None  # the night forgets the day
        self._state(g, violations)

    def _timer(self, g, t: Timer, violations: list[str]) -> None:
        running = self.running
        if self.clock is not None and running is not None and running[0] == self.clock and t.name != self.clock:
            if t.name:
                self.held = running[1]  # a trial's timer takes over: the day's clock stops
            else:
                self.clock = self.held = self.left = None  # no timer at all: the day is over
        if t.resume:
            if self.held is None or t.name != self.clock:
                violations.append(f"day {g.day}: the clock {t.name} goes on, but none was held: it would start full")
                self.running = (t.name, float(t.seconds))
                return
            if self.left is not None and self.held > self.left + 1e-9:
                violations.append(f"day {g.day}: the day's time grew in a trial: {self.left} -> {self.held}")
            self.running, self.left, self.held = (t.name, self.held), self.held, None
            return
        if t.hold and t.name:
            if self.started_day == g.day:
                violations.append(f"day {g.day}: the day's clock started from full again the same day")
            self.started_day = g.day
            self.clock, self.held, self.left = t.name, None, float(t.seconds)
            self.running = (t.name, float(t.seconds))
            return
        if t.name is not None and t.name == self.clock:
            violations.append(f"day {g.day}: the day's clock {t.name} restarted without hold or resume")
        self.running = (t.name, float(t.seconds)) if t.name else None

    def _state(self, g, violations: list[str]) -> None:
        if g.variant.day != "hungariq" or g.state in ("over", "night"):
            return
        running = self.running[0] if self.running else None
        if g.state in TRIAL_STATES and self.clock is not None:
            if running == self.clock:
                violations.append(f"day {g.day}: the trial ({g.state}) runs on the day's time")
            if self.held is None:
                violations.append(f"day {g.day}: a trial ({g.state}) with the day's clock running, not held")
        if g.state == "accusations" and not g.endgame() and (self.clock is None or running != self.clock):
            violations.append(f"day {g.day}: the accusations run without the day's clock ({running})")


SPEECH_STATES = {"speeches", "tie_speeches", "last_words", "nominee_speeches", "accused_last_word", "defences", "debate"}
YES_NO = {"all_leave_vote", "single_vote", "support_vote", "execution_vote"}


class RandomPlayer:
    """Chooses a random legal input for whatever the game is waiting for (and, now and then,
    an illegal one that must be refused)."""

    def __init__(self, rng: random.Random, illegal_rate: float = 0.03, foul_rate: float = 0.01, skill: float = 0.0):
        self.rng = rng
        self.illegal_rate = illegal_rate
        self.foul_rate = foul_rate
        # skill: how often a town player's choice lands on a real mafioso (0 = pure chance);
        # the mafia always know whom to vote against. It models a table's detective strength.
        self.skill = skill

    def pick(self, g, voter: int | None, options: list[int], sides: tuple[list[int], list[int]] | None = None) -> int:
        """`sides`: `self.sides(g, options)`, where the caller picks for many voters from the same
        options (a classic call asks every waiting fist); else only the side a voter draws from is
        sorted out."""
        r = self.rng
        if voter is not None and options:
            if team_of(g.role(voter)) == MAFIA:
                good = sides[1] if sides else [o for o in options if team_of(g.role(o)) != MAFIA]
                if good and r.random() < 0.9:
                    return r.choice(good)
            else:
                bad = sides[0] if sides else [o for o in options if team_of(g.role(o)) == MAFIA]
                if bad and r.random() < self.skill:  # drawn even at skill 0: a seed plays the same games
                    return r.choice(bad)
        return r.choice(options)

    @staticmethod
    def sides(g, options: list[int]) -> tuple[list[int], list[int]]:
        """The mafiosi among the options, and the others, each in the options' order."""
        bad = [o for o in options if team_of(g.role(o)) == MAFIA]
        return bad, [o for o in options if o not in bad]

    def judge(self, g, voter: int, accused: int | None) -> bool:
        """A yes/no on the accused: informed by skill for the town, by knowledge for the mafia."""
        r = self.rng
        if accused is None:
            return r.random() < 0.5
        guilty = team_of(g.role(accused)) == MAFIA
        if team_of(g.role(voter)) == MAFIA:
            return not guilty if r.random() < 0.9 else r.random() < 0.5
        if r.random() < self.skill:
            return guilty
        return r.random() < 0.5

    def legal(self, g):
        r = self.rng
        st = g.state
        alive = g.alive
        if g.rules.get("fouls") and st in SPEECH_STATES and r.random() < self.foul_rate:
            x = r.random()
            # now and then the referee dismisses a player, or one leaves the table (seed 004 §5)
            return Foul(r.choice(alive)) if x < 0.9 else Disqualify(r.choice(alive)) if x < 0.95 else Leave(r.choice(alive))
        if st == "speeches":
            mine = any(b == g.speaker for b, _ in g.nominations)
            if g.nominated_this_speech is not None and r.random() < 0.05:
                return Revoke(g.nominated_this_speech)
            if not mine and r.random() < 0.45:
                taken = {s for _, s in g.nominations}
                free = [s for s in alive if s not in taken]
                if free:
                    return Nominate(self.pick(g, g.speaker, free))
        if st in SPEECH_STATES:
            return EndSpeech() if r.random() < 0.85 else Timeout()
        # the moment as the rules describe it (flow/moment.py): the ballot, who is called, how —
        # asked where the day waits for somebody's answer (a vote, a kamikaze's choice)
        answers = g.phase() == "day" and g.awaiting()[0] in ("awaiting_votes", "awaiting_speech")
        m = g.moment() if answers else None
        vote = m.vote if m is not None else None
        if m is not None and m.called:
            # seed 004 §4.4: a fist goes down when his candidate is called; the others wait for theirs
            waiting = list(m.voters)
            current = m.called[m.calling]
            called = list(m.called)
            sides = self.sides(g, called)
            willing = [s for s in waiting if self.pick(g, s, called, sides) == current]
            if willing and r.random() < 0.93:
                return Tap(r.choice(willing), current)
            return Timeout()
        if vote is not None and vote[0] == "seat" and m.answer in ("vote", "point") and m.decider is None:
            # every waiting voter names one candidate: his own seat where the rules bar it (seed 003)
            waiting = list(m.voters)
            if waiting and r.random() < 0.93:
                voter = r.choice(waiting)
                candidates = list(vote[1])
                barred = g.seat_ask(voter, m).barred
                options = [c for c in candidates if c not in barred] or candidates
                return Tap(voter, self.pick(g, voter, options))
            return Timeout()
        if vote is not None and vote[0] == "yes_no":
            waiting = list(m.voters)
            if waiting and r.random() < 0.93:
                voter = r.choice(waiting)
                accused = getattr(g, "accused", None)
                if st in ("all_leave_vote", "single_vote"):
                    return Tap(voter, answer=any(self.judge(g, voter, t) for t in g.tied) if self.skill else r.random() < 0.5)
                return Tap(voter, answer=self.judge(g, voter, accused))
            return Timeout()
        if vote is not None and m.answer == "hand":
            # seed 000: a hand for the one name called; one vote a day
            waiting = list(m.voters)
            current = vote[1][0]
            willing = [s for s in waiting if self.judge(g, s, current)] if self.skill else waiting
            if willing and r.random() < 0.6:
                return Tap(r.choice(willing), current)
            return Timeout()
        day = g.moment() if g.phase() == "day" else None
        if day is not None and day.nominator_named and "nominate" in day.host:
            # a nomination is its nominator's (seed 000): any player names one while the day is open
            x = r.random()
            if x < 0.25:
                free = [s for s in alive if s not in g.noms]
                if free and len(alive) > 1:
                    by = r.choice(free)
                    return Nominate(self.pick(g, by, [s for s in alive if s != by]), by=by)
            if x < 0.3 and g.noms:
                by = r.choice(sorted(g.noms))
                return Revoke(g.noms[by], by=by)
            if day.extension == EXTENSION_OFFER and r.random() < 0.5:
                return Extend()
            return Timeout()
        if st == "accusations":
            if r.random() < 0.7:
                by = r.choice(alive)
                # one spared today is not accused again the same day (seed 001), but in the endgame
                free = [s for s in alive if s != by and (s not in g.tried_today or g.endgame())]
                if free:
                    return Nominate(self.pick(g, by, free), by=by)
            return Timeout()
        if st == "discussion":
            return EndSpeech() if r.random() < 0.5 else Timeout()
        if vote is not None and m.decider is not None:
            # seed 003: the last dead decides a tie alone
            if r.random() < 0.9:
                return Tap(m.decider, self.pick(g, m.decider, list(vote[1])))
            return Timeout()
        if m is not None and m.answer == "choose":
            # a dying kamikaze chooses whom he takes along
            if r.random() < 0.9:
                return Tap(m.voters[0], r.choice(alive))
            return Timeout()
        if g.phase() == "night":
            step = g.step
            if g.rules.get("fouls") and step is not None and step.action and r.random() < self.foul_rate:
                # the referee's call at night too (seed 004 §5: peeking, speaking at night), taken
                # silently and said at dawn; the one removed acts no more from that moment
                present = [s for s in alive if not g.gone_tonight(s)]
                if present:
                    return Foul(r.choice(present)) if r.random() < 0.8 else Disqualify(r.choice(present))
            if step is not None and step.action:
                done = g.intents.get(step.name, {})
                todo = [s for s in g.awake_seats() if s not in done]
                if todo and done and step.action in CHANGEABLE and r.random() < 0.1:
                    # a player changes his mind while the step is open: his last choice counts
                    seat = r.choice([s for s in done if s in g.awake_seats()] or todo)
                    return Tap(seat, r.choice([s for s in alive if s != seat] or alive))
                if todo and r.random() < 0.95:
                    seat = r.choice(todo)
                    others = [s for s in alive if s != seat] or alive
                    kind, choices = g.night_choices()
                    if kind != "seat":
                        return Tap(seat, r.choice(choices))
                    if step.action in ("shoot", "mafia_vote"):
                        town = [s for s in alive if team_of(g.role(s)) != MAFIA] or alive
                        agreed = next((t[-1] for t in done.values()), None)
                        target = agreed if agreed is not None and r.random() < 0.9 else r.choice(town)
                        return Tap(seat, target)
                    return Tap(seat, r.choice(others))
            if g.variant.name == "sverige" and r.random() < 0.002:
                return Leave(r.choice(alive))
            return Timeout()
        return Timeout()

    def illegal(self, g):
        """An input the game must refuse, read from the moment the rules publish (flow/moment.py)."""
        r = self.rng
        m = g.moment()
        dead = [s for s in g.seats if not g.seats[s].alive and s != g.speaker]
        options = [Tap(g.n + 1 + r.randrange(3), 1), Nominate(0)]
        # the rules' own exceptions: a dying kamikaze chooses, the last dead decides a tie (seed 003)
        dead_act = m.phase == "day" and (m.answer == "choose" or m.decider is not None)
        # a nomination is the speaker's own (classic, seed 004): a dead seat's is a tap instead
        speaker_nominates = "nominate" in g.day_offers() and not m.nominator_named and not m.accusing
        if dead and not dead_act:
            d = r.choice(dead)
            options += [Tap(d, r.choice(g.alive)), Nominate(r.choice(g.alive), by=d) if not speaker_nominates else Tap(d, 1)]
            if g.rules.get("fouls") and m.name != "state_last_words":  # the dead still speak their last words
                options += [Foul(d), Disqualify(d)]
        if g.phase() == "night":
            awake = g.awake_seats()
            asleep = [s for s in g.alive if s not in awake]
            if asleep and g.step is not None and g.step.action:
                options.append(Tap(r.choice(asleep), r.choice(g.alive)))
        ballot = m.vote if m.phase == "day" else None
        if ballot is not None and ballot[0] == "seat" and m.answer in ("vote", "point") and m.decider is None:
            voted = [s for s in g.alive if s not in m.voters]  # a second vote of a seat that voted
            if voted:
                options.append(Tap(r.choice(voted), (m.called or ballot[1])[0]))
        if speaker_nominates and "nominate" in m.host and g.speaker is not None:
            others = [s for s in g.alive if s != g.speaker]
            if others:
                options.append(Nominate(r.choice(g.alive), by=r.choice(others)))
        return r.choice(options)


class ScorerTable:
    """A table whose scorer types the fists (a keypad, or `[companion] votes = false`), played as
    the live loop plays it (`LiveSession`): the moment a classic call's two seconds are over it
    sends `Timeout(count_waits=True)`, the game says "Stop." and its count waits for the scorer's
    line; his fists come as taps — now and then one for a candidate not called yet, which the game
    refuses, and one for a candidate called before, the scorer catching up, which counts — and a
    plain Timeout ends the count. Now and then a `count_waits` comes where no call's time is over
    (another table, a night, a count already waiting): it is refused and changes nothing.

    A call's time ends either before the scorer typed anything (the count then takes every fist
    the random table raises for that call, drawn as ever) or after he typed them all (the count
    ends at once): the same fists either way, so the balance figures hardly move with the scorer
    (a late fist, now and then, is his own). Which tables type (half of those without phones that
    vote) and when a call's time ends are drawn on its own random stream: a game at a table
    without a scorer is the same game."""

    def __init__(self, rng: random.Random, skill: float = 0.0, misplaced_rate: float = 0.005):
        self.rng = rng
        self.player = RandomPlayer(rng, skill=skill)  # whom a late fist is for
        self.misplaced_rate = misplaced_rate
        self.types = False
        self.waiting = False  # a count_waits was taken: the count waits for the scorer's line
        self.typed = False  # ... and his line is in: the count is taken next
        self.call = None  # the call last seen, to know a fresh one
        # what was played, for a test to see every branch taken: "stop in <state>", "fist in the
        # count", "catching up", "not called yet", "stop again", "misplaced in <state>", "counted",
        # "all fists in"
        self.played: Counter[str] = Counter()

    def reset(self, votes_on_phones: bool) -> None:
        """A new game, at a table whose scorer types the fists or not: a table whose phones vote
        has none."""
        self.types = not votes_on_phones and self.rng.random() < 0.5
        self.waiting = self.typed = False
        self.call = None
        self.played["table" if self.types else "no scorer"] += 1

    def refused(self, g):
        """An input the game must refuse without any change, or None."""
        r = self.rng
        if self.waiting and r.random() < 0.08:
            later = g.candidates[g.calling + 1:]
            waiting = [s for s in g.alive if s not in g.votes]
            if later and waiting:
                self.played["not called yet"] += 1
                return Tap(r.choice(waiting), r.choice(later))
            self.played["stop again"] += 1  # "Stop." was said already
            return Timeout(count_waits=True)
        if r.random() < self.misplaced_rate and not g.hears_window_end():
            self.played[f"misplaced in {g.state}"] += 1
            return Timeout(count_waits=True)
        return None

    def next(self, g):
        """The scorer's own input, or None where the random table plays: the end of a call's time
        before he typed anything, a late fist for a candidate called before, his line's end."""
        if not self.types:
            return None
        r = self.rng
        if self.waiting:
            waiting = [s for s in g.alive if s not in g.votes]
            if waiting and g.calling and r.random() < (0.3 if self.typed else 0.03):
                voter = r.choice(waiting)
                self.played["catching up"] += 1
                return Tap(voter, self.player.pick(g, voter, g.candidates[:g.calling]))
            return Timeout() if self.typed else None
        if g.hears_window_end():
            call = (g.day, g.state, g.calling, tuple(g.candidates))
            if call != self.call:
                self.call = call
                if r.random() < 0.5:
                    return Timeout(count_waits=True)
        return None

    def stops(self, g, ev) -> bool:
        """Whether the random table's end of a call comes as the end of its time with every fist
        typed: `Timeout(count_waits=True)`, and the count is taken at once."""
        if self.types and type(ev) is Timeout and not ev.count_waits and g.hears_window_end():
            self.typed = True
            return True
        return False

    def heard(self, g, ev, violations: list[str]) -> None:
        """After an input the game took: the count waits from `count_waits` until the count."""
        if type(ev) is Timeout and ev.count_waits:
            self.waiting = True
            self.played[f"stop in {g.state}"] += 1
            if not g.window_over() or g.hears_window_end():
                violations.append(f"day {g.day}: the count does not wait after the call's time was over ({g.state})")
            return
        if not self.waiting:
            if g.window_over():
                violations.append(f"day {g.day}: a count waits that no count_waits began ({ev})")
            return
        if type(ev) is Tap:
            self.played["fist in the count"] += 1
        called = g.each_called() and len(g.votes) < len(g.alive)
        if type(ev) is Timeout or not called:
            self.waiting = self.typed = False  # counted: the next call (if any) is a new window
            self.played["counted" if type(ev) is Timeout else "all fists in"] += 1
            if g.window_over():
                violations.append(f"day {g.day}: the count was taken, yet the game still waits for it ({ev})")
        elif not g.window_over():
            violations.append(f"day {g.day}: the count stopped waiting before the scorer's line ended ({ev})")


class CallsHeard:
    """Classic's calls, each heard with exactly one "Stop." (seed 004 §4.4: the fists go down
    «before host says "Stop"»): never two, never none, never one without a call."""

    def __init__(self):
        self.open = False

    def heard(self, g, effects: list, violations: list[str]) -> None:
        for e in effects:
            if type(e) is not Say:
                continue
            if e.line in ("vote_call", "vote_call_last"):
                if self.open:
                    violations.append(f"day {g.day}: a call without its \"Stop.\" before player {e.args.get('seat')} was called")
                self.open = True
            elif e.line == "vote_stop":
                if not self.open:
                    violations.append(f"day {g.day}: \"Stop.\" said with no call open (twice for one call?)")
                self.open = False

    def over(self, violations: list[str]) -> None:
        if self.open:
            violations.append("the game ended with a call whose \"Stop.\" was never said")
            self.open = False


def play_one(variant: Variant, rng: random.Random, rules: dict, timers: dict, seats: int, check_replay: bool,
             violations: list[str], role_overrides: dict | None = None, skill: float = 0.0, sink=None,
             clock: DayClock | None = None, votes_on_phones: bool = False, scorer: ScorerTable | None = None):
    counts = variant.roles_for(seats, role_overrides)
    g = Game(variant, rules, timers, seats, roles=counts, votes_on_phones=votes_on_phones)
    player = RandomPlayer(rng, skill=skill)
    clock = clock or DayClock(random.Random(0))
    clock.reset()
    # its own stream, drawn from where the game's stands without moving it
    # seeded from the generator's ints alone: its state ends in None, and None's hash is its
    # address, so the whole state gave a different scorer, and other games, run after run
    scorer = scorer or ScorerTable(random.Random(hash(rng.getstate()[1])), skill)
    scorer.reset(votes_on_phones)
    # a rule system with no window whose end the table hears (classic's "Stop.") has no call to check
    calls = CallsHeard() if g.WINDOW_ENDS_HEARD else None
    started = g.start()
    protocol = entries(started, None)
    clock.timers(g, started, violations)
    roles = deal(counts, seats, rng)
    dealt = g.apply(Deal(tuple(sorted(roles.items()))))
    clock.timers(g, dealt, violations)
    protocol += entries(dealt, None)
    # what the game did, for the replay check: the protocol is a function of these effects, so
    # comparing them is comparing the protocols, without writing the replay's out
    played = started + dealt if check_replay else None
    for _ in range(MAX_EVENTS):
        if g.state == "over":
            break
        bad = scorer.refused(g)
        ev = scorer.next(g) if calls and bad is None else None
        if ev is None and bad is None and rng.random() < player.illegal_rate:
            bad = player.illegal(g)
        if bad is not None:
            before, state = snapshot(g), g.state
            effects = g.apply(bad)
            if not any(isinstance(e, Reject) for e in effects):
                violations.append(f"illegal input accepted: {bad} in {state}")
            elif snapshot(g) != before:
                violations.append(f"refused input changed the game: {bad}")
            continue
        if ev is None:
            ev = player.legal(g)
            if calls and scorer.stops(g, ev):
                ev = Timeout(count_waits=True)
        # one the referee removed tonight, or who left the table, acts no more from that moment
        # (asked only when someone is gone tonight: this runs before every input)
        alive = set(g.alive)
        if g.leaving or g.removed_tonight:
            alive = {s for s in alive if not g.gone_tonight(s)}
        if g.state == "last_words":
            alive.add(g.speaker)
        clock.passes(ev)
        effects = g.apply(ev)
        clock.timers(g, effects, violations)
        dawn = False
        spoken, timed = [], []  # the durations said, and the timers' lengths, in order
        for e in effects:
            kind = type(e)
            if kind is Record:
                entry = e.entry
                t = entry["type"]
                if t in ACTS and entry[ACTS[t]] is not None and entry[ACTS[t]] not in alive:
                    violations.append(f"dead seat {entry[ACTS[t]]} acted: {entry}")
                elif t == "eliminated":
                    alive.discard(entry["seat"])
                elif t == "shot" and "saved_by_sarika" not in entry:
                    final = {tuple(v)[-1] if v else None for v in entry["shooters"].values()}
                    agreed = final.pop() if len(final) == 1 else None
                    if len(entry["shooters"]) > 0 and agreed != entry["seat"]:
                        violations.append(f"a shot did not follow the shooters' last choices: {entry}")
                elif entry.get("phase") == "day":
                    dawn = True
            elif kind is Say:
                if "time" in e.args:
                    spoken.append(e.args["time"])
            elif kind is Timer and e.name:
                timed.append(e.seconds)
        if dawn and g.state not in ("over", "kamikaze"):
            won = g.win_now("dawn")  # the win is checked at every dawn, deaths or not
            if won:
                violations.append(f"a dawn did not end a game {won} had won")
        if spoken and spoken != timed[-len(spoken):]:
            violations.append(f"a spoken duration {spoken} is not the timer's: {effects}")
        if calls:
            calls.heard(g, effects, violations)
            if not isinstance(effects[0], Reject):
                scorer.heard(g, ev, violations)
        if sink is not None:
            protocol += entries(effects, None)
        if played is not None:
            played += effects
    else:
        violations.append("a game did not end")
    if calls:
        calls.over(violations)
    g.close()
    if sink is not None:
        sink(protocol)
    if played is not None:
        h = Game(variant, rules, timers, seats, roles=counts, votes_on_phones=votes_on_phones)
        again = list(h.start())
        # the inputs as the protocol writes them and reads them back
        for ev in inputs_of(e.entry for e in played if type(e) is Record):
            again += h.apply(ev)
        h.close()
        if taken(again) != taken(played):
            violations.append("the protocol did not replay to the same game")
    return g


def taken(effects: list) -> list:
    """The effects of the inputs the game took: a refusal, and its record, are no part of the
    game (a replay feeds only the inputs taken)."""
    return [e for e in effects if type(e) is not Reject and not (type(e) is Record and e.entry["type"] == "rejected")]


def simulate(variant_name: str, games: int, seed: int, rules: dict | None = None, timers: dict | None = None,
             seats: int | None = None, check_replay: bool = True, progress=None, roles: dict | None = None,
             skill: float = 0.0, protocols: str | None = None, players: dict[int, str] | None = None,
             language: str = "en", votes_on_phones: bool = False) -> dict:
    variant = VARIANTS[variant_name]
    d_rules, d_timers = defaults(variant)
    d_rules.update(rules or {})
    d_timers.update(timers or {})
    seats = seats or variant.default_seats
    rng = random.Random(seed)
    wins = {"town": 0, "mafia": 0, "draw": 0}
    days = 0
    violations: list[str] = []
    started = time.perf_counter()
    clock = DayClock(random.Random(f"clock:{seed}"))  # its own stream: the games are the same games
    scorer = ScorerTable(random.Random(f"scorer:{seed}"), skill)  # its own stream too
    for i in range(games):
        sink = _protocol_writer(protocols, i, seed, seats, players or {}, language) if protocols else None
        g = play_one(variant, rng, d_rules, d_timers, seats, check_replay, violations, roles, skill, sink, clock,
                     votes_on_phones, scorer)
        if g.winner:
            wins[g.winner] = wins.get(g.winner, 0) + 1  # the maniac wins alone
        days += g.day
        if progress:
            progress(i + 1)
    elapsed = time.perf_counter() - started
    return {
        "variant": variant_name,
        "seats": seats,
        "roles": variant.roles_for(seats, roles),
        "games": games,
        "seed": seed,
        "wins": wins,
        "win_rate": {k: round(v / games, 4) for k, v in wins.items()} if games else {},
        "mean_days": round(days / games, 3) if games else 0,
        "violations": len(violations),
        "violation_examples": violations[:5],
        "skill": skill,
        "replay_checked": check_replay,
        "games_per_second": round(games / elapsed, 1) if elapsed else None,
    }


def _protocol_writer(folder: str, i: int, seed: int, seats: int, players: dict[int, str], language: str):
    """Writes game i's protocol to folder/game-<seed>-<i>.jsonl, the table's names seated at random
    (a club's players take different seats each game); its own random stream, so the games
    themselves are the same with or without protocols."""
    import os

    from .protocol import write
    from .report.reader import table_entry

    names = list(players.values())
    random.Random(f"{seed}:{i}").shuffle(names)
    seated = {s: n for s, n in zip(range(1, seats + 1), names)}

    def sink(protocol: list[dict]) -> None:
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, f"game-{seed}-{i:05d}.jsonl"), "w", encoding="utf-8") as fh:
            write([table_entry(language, seated)] + protocol, fh)

    return sink
