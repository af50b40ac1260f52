"""Rules of the seeds that no other test played, found by reading each seed in full against the
rules data and the day modules (session 17): each is played at the table it describes and cites
the seed's own words."""

from __future__ import annotations

from conftest import Table


# ------------------------------------------------------------------ sverige (seed 000)
def sverige(**kw) -> Table:
    t = Table(deal="1=mafia 2=mafia 3=doctor", variant="sverige", seats=8, roles={"mafia": 2, "doctor": 1}, **kw)
    assert t.game.state == "discussion"
    return t


def test_sverige_the_hanged_leaves_in_silence_and_the_night_follows():
    # seed 000 Röstning: «Spelaren som får högst antal röster hängs och får därefter inte påverka
    # spelet, sedan blir det nattfas» — no last words, unlike classic
    t = sverige()
    t.do("say 4 nominates 1", "timeout", "timeout", "timeout", "say thank you", "tap 4 1", "tap 5 1", "timeout")
    assert t.said()[-3:] == ["hanged", "night_falls", "mafia_wakes_kill"]
    assert "last_words_turn" not in t.said() and t.game.state == "night"


def test_sverige_the_revote_gives_everybody_a_vote_again():
    # seed 000 Röstning: «en omröstning mellan enbart dem, och alla får åter rösta på högst en av dem»
    t = sverige()
    t.do("say 3 nominates 7", "say 4 nominates 8", "timeout", "timeout", "timeout", "say thank you", "say thank you")
    t.do("tap 1 7", "timeout", "tap 2 8", "timeout")               # one hand each: a tie
    assert t.game.vote_round == "revote"
    t.do("tap 1 7", "timeout", "tap 5 8", "tap 2 8", "timeout")     # 1 and 2 vote again
    assert t.records("vote_result")[-1]["counts"] == {"7": 1, "8": 2} and (8, "vote") in t.eliminated()


def test_sverige_a_mafia_that_cannot_agree_shoots_nobody_and_the_morning_tells_no_attempt():
    # seed 000: «Kan de inte enas så skjuts ingen»; Natt: the host «deklarerar vem som dött eller att
    # det blivit mordförsök» — a shot nobody agreed on is no attempt on anybody
    t = sverige()
    t.do("say 4 nominates 6", "timeout", "timeout", "timeout", "say thank you", "tap 4 6", "timeout")
    t.do("tap 1 4", "tap 2 5", "tap 3 7", "timeout")
    assert t.records("shot")[-1]["seat"] is None and t.eliminated() == [(6, "vote")]
    assert "morning_nobody" in t.said() and "morning_attempt" not in t.said()


def test_sverige_the_freemasons_meet_at_night_zero_only():
    # seed 000: «Frimurarna är två spelare som väcks samtidigt under setup (“natt noll”) för att se
    # varandra» — and no other night has a part for them
    t = Table(deal="1=mafia 2=mafia 3=doctor 4=freemason 5=freemason", variant="sverige", seats=8,
              roles={"mafia": 2, "doctor": 1, "sheriff": 0, "freemason": 2}, fixed_night_steps=True)
    t.do("timeout", "timeout")                                      # night zero's two parts
    assert t.said()[1:6] == ["night_zero_falls", "mafia_wakes_see", "mafia_sleeps", "freemasons_wake_meet", "freemasons_sleep"]
    t.do("say 4 nominates 6", "timeout", "timeout", "timeout", "say thank you", "tap 4 6", "timeout")
    t.do("timeout", "timeout")                                      # the mafia's part, the doctor's
    night = t.said()[t.said().index("night_falls"):]
    assert "freemasons_wake_meet" not in night and night[-3:] == ["city_wakes", "morning_nobody", "free_day"]


# ------------------------------------------------------------------ hungariq (seed 001)
def test_hungariq_the_mafia_may_kill_one_of_their_own_who_votes_for_himself():
    # seed 001: «A maffiózók akár maguk közül is ölhetnek éjszaka … ha a halálra ítélt maffiózó is
    # magára szavaz éjszaka»
    t = Table(deal="1=inspector 2=protected_mafia 3=mafia 4=mafia", variant="hungariq", seats=12)
    t.do("say I accuse player 5", *[f"tap {s} no" for s in range(1, 13)], "timeout")   # a quiet day
    assert t.game.state == "night"
    t.do("tap 1 6", "tap 2 4", "tap 3 4", "tap 4 4")
    assert t.eliminated() == [(4, "shot")]


# ------------------------------------------------------------------ grundregeln (seed 003)
def test_grundregeln_a_morning_after_a_night_without_a_victim_says_so():
    # seed 003 Tagphase: «Er verkündet ob, wer und ggf. wie ein Spieler gestorben ist» — whether:
    # mafiosi who point at different victims kill nobody, and the morning says that too
    t = Table(deal="1=mafia 2=mafia", variant="grundregeln", seats=8, roles={"mafia": 2}, lang="de")
    t.do("tap 1 7", "tap 2 8")
    assert t.eliminated() == [] and t.said()[-3:] == ["city_wakes", "morning_nobody", "day_discuss"]
    assert t.session.render("morning_nobody", {}) == "Heute Nacht ist niemand gestorben."
    assert t.game.state == "discussion"


def test_grundregeln_the_final_vote_is_between_the_two_nominees_only():
    # seed 003: «Die beiden mit den meisten erhaltenen Stimmen werden nominiert … Nach dieser wird
    # endgültig abgestimmt, wer gelyncht wird» — a vote for anybody else is no vote
    t = Table(deal="1=mafia 2=mafia", variant="grundregeln", seats=8, roles={"mafia": 2})
    t.do("tap 1 8", "tap 2 8", "timeout")
    for voter, target in {1: 3, 2: 3, 3: 4, 4: 3, 5: 4, 6: 5, 7: 4}.items():
        t.do(f"tap {voter} {target}")
    t.do("timeout", "timeout")                                      # the two defences
    assert t.game.state == "final_vote" and t.game.candidates == [3, 4]
    assert t.refused("tap 1 5").line == "reject_not_candidate"


# ------------------------------------------------------------------ every rule's and timer's source
def test_every_default_names_the_seed_that_sets_it_or_says_the_seeds_leave_it_open():
    """Each option's default is the seed's, cited by its number; where the seeds give a procedure but
    no length (a night part, the last call's answer) the comment says so; where they are silent it
    names the practice followed (FIIM's, a club's) — the example configs print these comments."""
    import re

    from narrator.rules.variants import VARIANTS

    cited = re.compile(r"seed 00\d|VARIANTS\.md|seeds silent|club practice")
    for v in VARIANTS.values():
        for name, opt in {**v.rules, **v.timers}.items():
            assert cited.search(opt.source), f"{v.name}.{name}: {opt.source}"
