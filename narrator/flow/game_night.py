"""The deal and the night's steps of every rule system: who wakes, in which order, and what a
tap at night does. Part of the game (`BaseGame` takes it in); the steps' actions are night.py's."""

from __future__ import annotations

from ..rules.dealing import validate_deal
from ..rules.variants import NightStep
from .events import Deal, Tap
from .moment import Moment, SeatAsk
from .night import ACTIONS, CHOICES, checked_tonight
from .refused import Refused


class DealAndNight:
    """The deal and the night up to dawn, for `BaseGame`: its state and helpers are the game's."""

    # ------------------------------------------------------------------ dealing
    def _on_deal(self, ev: Deal) -> None:
        if self.state != "setup":
            raise Refused("reject_already_dealt")
        if ev.cards:
            if ev.roles or ev.extras:
                raise Refused("reject_deal_cards", {})
            self.cards = True
            self.claims = {r: [] for r in self.role_counts}
            self._record("deal_cards", roles=dict(self.role_counts))
            return self._go_night()
        named: dict[int, str] = {}
        known = set(self.role_counts) | {"citizen"} | set(self.variant.optional_roles)
        for seat, role in ev.roles:
            if not isinstance(seat, int) or not 1 <= seat <= self.n:
                raise Refused("reject_no_such_seat", {"seat": seat, "n": self.n})
            if role not in known:
                raise Refused("reject_unknown_role", {"role": role})
            if seat in named:
                raise Refused("reject_deal_seat_twice", {"seat": seat})
            named[seat] = role
        full, err = validate_deal(self.role_counts, self.n, named)
        if err:  # seats beyond the table were refused above: what is left is the roles it must have
            raise Refused("reject_" + err[0], err[1])
        lovers = [s for s, flag in ev.extras if flag == "lover"]
        kamikazes = [s for s, flag in ev.extras if flag == "kamikaze"]
        for s, flag in ev.extras:
            if flag not in self.variant.extras:
                raise Refused("reject_unknown_role", {"role": flag})
            if s not in self.seats:
                raise Refused("reject_no_such_seat", {"seat": s, "n": self.n})
        if lovers and len(lovers) != 2:
            raise Refused("reject_deal_lovers", {})
        for s, r in full.items():
            self.seats[s].role = r
        if lovers:
            a, b = lovers
            self.seats[a].lover, self.seats[b].lover = b, a
        for s in kamikazes:
            self.seats[s].kamikaze = True
        self._record("deal", roles={str(s): r for s, r in full.items()}, extras={str(s): f for s, f in ev.extras})
        self._go_night()

    # ------------------------------------------------------------------ night
    def _go_night(self) -> None:
        self.speaker = None
        self._timer(None)
        if self.skip_nights():
            # the day that ended is over, and the next one begins without a night in between
            # (seed 001's endgame: «ekkor már nem lehet éjszakát elrendelni»)
            self._record("no_night", reason="endgame")
            self.day += 1
            self._record("phase", phase="day", day=self.day)
            return self._begin_day()
        self.to_night()
        self.night_no += 1
        first = self.night_no == 0 and self.variant.night_zero
        self.steps = self.variant.night_zero if first else self.variant.night
        if self.cards and self.night_no == 0:
            self.steps = self.identification_steps() + self.steps
        self.step_index = -1
        self.intents = {}
        self.blocked = set()
        self._record("phase", phase="night", night=self.night_no)
        self._say("night_zero_falls" if first else "night_falls")
        self._next_step()

    def skip_nights(self) -> bool:
        return False

    def identification_steps(self) -> tuple[NightStep, ...]:
        """Night zero with physical cards: each special card, one after another, taps its own seat."""
        return tuple(NightStep(f"identify_{r}", (r,), "identify", "identify_wake", "identify_sleep", "night_zero_step")
                     for r in self.role_counts)

    def _identify_missing(self, step: NightStep) -> int:
        role = step.actors[0]
        return self.role_counts.get(role, 0) - len(self.claims.get(role, []))

    def _record_cards_deal(self) -> None:
        self.cards_recorded = True
        missing = {r: n - len(self.claims[r]) for r, n in self.role_counts.items() if n > len(self.claims[r])}
        self._record("deal", roles={str(s): st.role for s, st in self.seats.items()}, cards=True, missing=missing)

    def _next_step(self) -> None:
        while True:
            if self.step_open:
                step = self.steps[self.step_index]
                if step.action == "identify" and self._identify_missing(step) > 0 and step.name not in self.repeated:
                    # a card did not show itself: the step is called once more, as a host would
                    self.repeated.add(step.name)
                    self._say("identify_again", role="@role_" + step.actors[0])
                    self._timer(step.timer)
                    if self.fixed_night_steps or not self._step_complete():
                        return
                    continue
                if not self._next_continues():
                    self._say(step.sleep_line, **({"role": "@role_" + step.actors[0]} if step.action == "identify" else {}))
                self.step_open = False
            self.step_index += 1
            if self.cards and not self.cards_recorded and (
                    self.step_index >= len(self.steps) or self.steps[self.step_index].action != "identify"):
                self._record_cards_deal()
            if self.step_index >= len(self.steps):
                return self._dawn()
            step = self.steps[self.step_index]
            if not self._step_plays(step):
                continue  # a role that is not in this game at all (the table knows the setup), or a rule that is off
            self.step_open = True
            # roles never change during a night, so who wakes is worked out once per step; while the
            # cards are shown everybody may tap (a tap on another seat is the cover of the others)
            if step.action == "identify":
                self._awake = list(self.alive)
            else:
                self._awake = self.with_roles(self.alive, step.actors)
            args = {"seats": list(self.alive)} if step.action == "mafia_vote" else {}
            if step.action in CHOICES:
                # the list is read out with its numbers: a keypad or console answers with one
                kind, numbers = CHOICES[step.action]
                args = {"menu": [f"@{kind}_{n}" for n in numbers]}
            if step.action == "identify":
                args = {"role": "@role_" + step.actors[0]}
            line = step.wake_line
            if step.wake_without is not None and not self._in_game(step.wake_without[0]):
                line = step.wake_without[1]
            self._say(line, **args)
            self._timer(step.timer)
            if self.fixed_night_steps or not self._step_complete():
                return

    def _step_plays(self, step: NightStep) -> bool:
        return (step.when is None or bool(self.rules.get(step.when))) and self._step_cast(step)

    def _next_continues(self) -> bool:
        """Whether the next step that plays keeps this step's players awake."""
        for step in self.steps[self.step_index + 1:]:
            if self._step_plays(step):
                return step.continues
        return False

    def _step_cast(self, step: NightStep) -> bool:
        """Whether this step's role is in the game at all (dealt, dead or alive). A step for a role
        that was dealt always plays — with the same length — even when its player is dead."""
        return any(self._in_game(r) for r in step.actors)

    def _in_game(self, role: str) -> bool:
        """Whether `role` was dealt in this game (the table knows the setup), its player dead or alive."""
        if role == "lover":
            return any(st.lover for st in self.seats.values())
        if self.role_counts.get(role):
            return True
        for st in self.seats.values():  # a plain loop: asked for every step of every night
            if st.role == role:
                return True
        return False

    def _step_complete(self) -> bool:
        step = self.step
        if step is None:
            return True
        if step.action == "identify":
            return self._identify_missing(step) <= 0
        awake = self.awake_seats()
        if step.action is None or not awake:
            return True
        done = self.intents.get(step.name, {})
        return all(s in done for s in awake)

    def _night_tap(self, ev: Tap) -> None:
        seat = self._valid_seat(ev.seat, private=True)
        if not self.seats[seat].alive:
            raise Refused("reject_seat_out", {"seat": seat}, private=True)
        step = self.step
        if step is None or step.action is None:
            raise Refused("reject_nothing_to_do", {"seat": seat}, private=True)
        if self.gone_tonight(seat):
            # he has left the table, or the referee removed him: from that moment he acts no more
            # (his choices are void at dawn)
            raise Refused("reject_seat_out", {"seat": seat}, private=True)
        if seat not in self._awake:
            raise Refused("reject_not_awake", {"seat": seat}, private=True)
        if ev.target is None:
            raise Refused("reject_need_seat", {}, private=True)
        if checked_tonight(self, step, seat):
            raise Refused("reject_already_checked", {}, private=True)
        if step.action in CHOICES:
            numbers = CHOICES[step.action][1]
            if ev.target not in numbers or isinstance(ev.target, bool):
                raise Refused("reject_no_such_choice", {"n": len(numbers)}, private=True)
            target = ev.target
        else:
            target = self._living_seat(ev.target, private=True)
        ACTIONS[step.action](self, step, seat, target)
        if not self.fixed_night_steps and self._step_complete():
            self._next_step()

    # ------------------------------------------------------------------ the night's moment (moment.py)
    def night_moment(self) -> Moment:
        """The night as the whole table may know it: the step the narrator calls, what every phone
        may tap in it. Nothing of who is awake: nobody is counted, nobody decides."""
        step = self.step
        ask, choices = self.night_choices()
        if step is None:
            name = "state_night"
        elif step.action == "identify":
            name = "night_identify"  # the role it wakes is said aloud
        else:
            # a step that chooses from a list (the manner of death) says so; the same for every seat
            name = "night_choose" if ask != "seat" else "night"
        return Moment(
            phase="night", name=name, subject=None, step=step.name if step is not None else None,
            role=step.actors[0] if step is not None and step.action == "identify" else None,
            ask=ask, choices=tuple(choices), by_vote=False, vote=None, voters=(), answer="vote", decider=None,
            nominations=(), accusing=self.ACCUSING, nominator_named=self.NOMINATOR_NAMED, extension=None,
            host=tuple(self.host_offers()), penalties=bool(self.rules.get("fouls")),
            extension_used=self.extension_spent())

    def night_seat_ask(self, seat: int, moment: Moment) -> SeatAsk:
        """A seat's phone at night: the step's question and choices, the same for every seat,
        awake or asleep, alive or dead, whatever his role (a phone that lights up betrays nothing)."""
        return SeatAsk(seat=seat, kind=moment.ask, choices=moment.choices, barred=(), counted=False, answer=None)
