"""The phase graph's triggers take a shortcut past transitions' callback machinery
(`PhaseChange`): it holds only while nothing in the graph has a callback, and a phase change the
graph has no edge for is still refused by transitions itself."""

import pytest
from transitions import MachineError

from narrator.flow.days import Game, day_procedure
from narrator.flow.game import machine_for
from narrator.rules.variants import VARIANTS
from narrator.simulate import defaults


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_rule_systems_phase_graph_is_plain_state_changes(name):
    variant = VARIANTS[name]
    assert machine_for(day_procedure(variant.day), name).plain


def test_a_phase_change_with_no_edge_from_here_is_refused_and_changes_nothing():
    rules, timers = defaults(VARIANTS["classic"])
    game = Game(VARIANTS["classic"], rules, timers)
    with pytest.raises(MachineError):
        game.to_voting()  # the vote opens from the speeches only
    assert game.state == "setup"
    game.to_speeches()
    game.to_voting()
    assert game.state == "voting" and game.is_voting()
    game.close()


def test_a_callback_on_a_phase_turns_the_shortcut_off():
    class Noted(day_procedure("classic")):
        def on_enter_voting(self):  # transitions would call it as the vote opens
            self.noted = True

    assert not machine_for(Noted, "classic").plain
    rules, timers = defaults(VARIANTS["classic"])
    game = Noted(VARIANTS["classic"], rules, timers)
    game.to_speeches()
    game.to_voting()
    assert game.noted
    game.close()
