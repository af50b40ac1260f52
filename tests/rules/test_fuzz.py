"""Bad input never crashes the game: arbitrary inputs — any kind, any seat number, at any moment —
are either played or refused with an answer, and a refused one changes nothing. Every variant."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from conftest import examples as profile_examples

from narrator.flow.effects import Reject
from narrator.flow.events import Deal, Defeat, Disqualify, EndSpeech, Extend, Foul, Leave, Nominate, Revoke, Tap, Timeout
from narrator.flow.days import Game
from narrator.rules.dealing import deal
from narrator.rules.variants import VARIANTS
from narrator.simulate import RandomPlayer, defaults, snapshot

seat = st.integers(-2, 22)
maybe_seat = st.one_of(st.none(), seat)
event = st.one_of(
    st.builds(Nominate, seat, maybe_seat),
    st.builds(Revoke, maybe_seat, maybe_seat),
    st.builds(EndSpeech, maybe_seat),
    st.builds(Tap, seat, maybe_seat, st.one_of(st.none(), st.booleans())),
    st.builds(Foul, seat),
    st.builds(Leave, seat),
    st.builds(Disqualify, seat),
    st.builds(Defeat, seat),
    st.just(Timeout()),
    st.just(Extend()),
    st.builds(lambda s, r: Deal(((s, r),)), seat, st.sampled_from(["don", "mafia", "wizard", "citizen"])),
)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@settings(max_examples=profile_examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), noise=st.lists(event, min_size=1, max_size=60))
def test_arbitrary_input_is_played_or_refused_and_never_crashes(variant, seed, noise):
    v = VARIANTS[variant]
    rules, timers = defaults(v)
    rng = random.Random(seed)
    g = Game(v, rules, timers, v.default_seats, roles=v.roles_for(v.default_seats))
    g.start()
    g.apply(Deal(tuple(sorted(deal(v.roles_for(v.default_seats), v.default_seats, rng).items()))))
    player = RandomPlayer(rng, illegal_rate=0.0)
    for ev in noise:
        # walk the game forward a little between the noise, so it lands in every phase
        for _ in range(rng.randrange(0, 15)):
            if g.state == "over":
                break
            g.apply(player.legal(g))
        before = snapshot(g)
        effects = g.apply(ev)
        if any(isinstance(e, Reject) for e in effects):
            assert snapshot(g) == before, f"{ev} was refused but changed the game"
    g.close()
