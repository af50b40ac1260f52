"""`narrator simulate`: many complete games with random legal inputs, checked against rule invariants.

It is the project's fuzzing harness and the club's balance report at once: win rates per side
under the chosen options, and proof that no random game breaks a rule (nobody dead acts, every
game ends, refused input changes nothing, the protocol replays to the same game).
"""

from __future__ import annotations

import random
import time

from .flow.effects import Record, Reject
from .flow.events import Deal, EndSpeech, Foul, Nominate, Revoke, Tap, Timeout
from .flow.game import Game
from .protocol import entries, inputs_of
from .rules.dealing import deal
from .rules.roles import MAFIA, team_of
from .rules.variants import VARIANTS, Variant

MAX_EVENTS = 20000
ACTS = {"nomination": "by", "vote": "voter", "shot_fired": "by", "check": "by", "revocation": "by"}


def defaults(variant: Variant) -> tuple[dict, dict]:
    return (
        {k: o.default for k, o in variant.rules.items()},
        {k: o.default for k, o in variant.timers.items()},
    )


def snapshot(g: Game) -> tuple:
    return (
        g.state,
        tuple(g.alive),
        tuple(st.fouls for st in g.seats.values()),
        tuple(g.nominations),
        tuple(sorted(g.votes.items())),
        tuple(sorted(g.answers.items())),
        tuple(sorted((k, tuple(v)) for k, v in g.shots.items())),
        tuple(sorted(g.checked)),
        g.speaker,
        g.step_index,
        tuple(g.speech_queue),
        g.day,
    )


class RandomPlayer:
    """Chooses a random legal input for whatever the game is waiting for (and, now and then,
    an illegal one that must be refused)."""

    def __init__(self, rng: random.Random, illegal_rate: float = 0.03, foul_rate: float = 0.01):
        self.rng = rng
        self.illegal_rate = illegal_rate
        self.foul_rate = foul_rate

    def legal(self, g: Game):
        r = self.rng
        st = g.state
        alive = g.alive
        if st in ("speeches", "tie_speeches", "last_words"):
            if r.random() < self.foul_rate:
                return Foul(r.choice(alive))
            if st == "speeches":
                mine = any(b == g.speaker for b, _ in g.nominations)
                if g.nominated_this_speech is not None and r.random() < 0.05:
                    return Revoke(g.nominated_this_speech)
                if not mine and r.random() < 0.45:
                    taken = {s for _, s in g.nominations}
                    free = [s for s in alive if s not in taken]
                    if free:
                        return Nominate(r.choice(free))
            return EndSpeech() if r.random() < 0.85 else Timeout()
        if st in ("voting", "revote"):
            waiting = [s for s in alive if s not in g.votes]
            if waiting and r.random() < 0.93:
                return Tap(r.choice(waiting), r.choice(g.candidates))
            return Timeout()
        if st == "all_leave_vote":
            waiting = [s for s in alive if s not in g.answers]
            if waiting and r.random() < 0.93:
                return Tap(r.choice(waiting), answer=r.random() < 0.5)
            return Timeout()
        if st == "night":
            step = g.step
            if step is not None and step.action:
                awake = g.awake_seats()
                if step.action == "shoot":
                    todo = [s for s in awake if s not in g.shots]
                    if todo and r.random() < 0.95:
                        town = [s for s in alive if team_of(g.role(s)) != MAFIA] or alive
                        # a mafia mostly agrees on one victim: the first shooter picks, others follow
                        agreed = next(iter(g.shots.values()), [None])[-1] if g.shots else None
                        target = agreed if agreed is not None and r.random() < 0.9 else r.choice(town)
                        return Tap(r.choice(todo), target)
                else:
                    todo = [s for s in awake if s not in g.checked]
                    others = [s for s in alive if s not in todo]
                    if todo and others and r.random() < 0.95:
                        return Tap(todo[0], r.choice(others))
            return Timeout()
        return Timeout()

    def illegal(self, g: Game):
        r = self.rng
        dead = [s for s in g.seats if not g.seats[s].alive]
        options = [Tap(g.n + 1 + r.randrange(3), 1), Nominate(0)]
        if dead:
            d = r.choice(dead)
            options += [Tap(d, r.choice(g.alive)), Foul(d) if g.state != "last_words" else Tap(d, 1)]
        if g.state == "night":
            asleep = [s for s in g.alive if s not in g.awake_seats()]
            if asleep and g.step is not None and g.step.action:
                options.append(Tap(r.choice(asleep), r.choice(g.alive)))
        if g.state in ("voting", "revote"):
            voted = list(g.votes)
            if voted:
                options.append(Tap(r.choice(voted), g.candidates[0]))
        if g.state == "speeches" and g.speaker is not None:
            others = [s for s in g.alive if s != g.speaker]
            if others:
                options.append(Nominate(r.choice(g.alive), by=r.choice(others)))
        return r.choice(options)


def play_one(variant: Variant, rng: random.Random, rules: dict, timers: dict, seats: int, check_replay: bool, violations: list[str]):
    g = Game(variant, rules, timers, seats)
    player = RandomPlayer(rng)
    protocol = entries(g.start(), None)
    roles = deal(variant, seats, rng)
    protocol += entries(g.apply(Deal(tuple(sorted(roles.items())))), None)
    for _ in range(MAX_EVENTS):
        if g.state == "over":
            break
        if rng.random() < player.illegal_rate:
            ev = player.illegal(g)
            before = snapshot(g)
            effects = g.apply(ev)
            if not any(isinstance(e, Reject) for e in effects):
                violations.append(f"illegal input accepted: {ev} in {before[0]}")
            elif snapshot(g) != before:
                violations.append(f"refused input changed the game: {ev}")
            continue
        ev = player.legal(g)
        alive = set(g.alive)
        effects = g.apply(ev)
        for e in effects:
            if isinstance(e, Record):
                t = e.entry["type"]
                if t in ACTS and e.entry[ACTS[t]] not in alive:
                    violations.append(f"dead seat {e.entry[ACTS[t]]} acted: {e.entry}")
                elif t == "eliminated":
                    alive.discard(e.entry["seat"])
        protocol += entries(effects, None)
    else:
        violations.append("a game did not end")
    g.close()
    if check_replay:
        h = Game(variant, rules, timers, seats)
        again = entries(h.start(), None)
        for ev in inputs_of(protocol):
            again += entries(h.apply(ev), None)
        h.close()
        if [e for e in again if e["type"] != "rejected"] != [e for e in protocol if e["type"] != "rejected"]:
            violations.append("the protocol did not replay to the same game")
    return g


def simulate(variant_name: str, games: int, seed: int, rules: dict | None = None, timers: dict | None = None,
             seats: int | None = None, check_replay: bool = True, progress=None) -> dict:
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
    for i in range(games):
        g = play_one(variant, rng, d_rules, d_timers, seats, check_replay, violations)
        if g.winner:
            wins[g.winner] += 1
        days += g.day
        if progress:
            progress(i + 1)
    elapsed = time.perf_counter() - started
    return {
        "variant": variant_name,
        "seats": seats,
        "games": games,
        "seed": seed,
        "wins": wins,
        "win_rate": {k: round(v / games, 4) for k, v in wins.items()} if games else {},
        "mean_days": round(days / games, 3) if games else 0,
        "violations": len(violations),
        "violation_examples": violations[:5],
        "replay_checked": check_replay,
        "games_per_second": round(games / elapsed, 1) if elapsed else None,
    }
