"""Each variant as data: seats, role tables, night steps, timers and rule options with the seed
that sets each default. The rules that are genuinely special are small hooks in the flow
(one day procedure per rule system, a few night actions)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable


@dataclass(frozen=True)
class NightStep:
    """One part of a night: who wakes, what they may do, which lines open and close it."""

    name: str
    actors: tuple[str, ...]  # roles that wake in this step ("lover" and "freemason" work too)
    action: str | None  # None: they only meet; else a key of flow.night.ACTIONS
    wake_line: str
    sleep_line: str
    timer: str  # which timer sets its length
    when: str | None = None  # a rule option that must be on for the step to play
    continues: bool = False  # the previous step's players stay awake for it (no sleep line between)
    # (role, line): the line said instead of wake_line where that role is not in the game at all —
    # "the protected mafioso shows himself" at a table that dealt none would send the mafia looking
    wake_without: tuple[str, str] | None = None


@dataclass(frozen=True)
class Option:
    default: object
    kind: type
    source: str  # where the default comes from (seed and section)
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple | None = None
    # what the type and bounds cannot say: the value's [config_errors] line when it is wrong, else None
    check: Callable[[object], str | None] | None = None


@dataclass(frozen=True)
class Variant:
    name: str
    seats: tuple[int, int]  # allowed player counts
    day: str  # the day procedure: classic, sverige, hungariq, grundregeln
    table: Callable[[int], dict[str, int]]  # standard special roles for a player count
    night_zero: tuple[NightStep, ...]  # empty: the game starts with a killing night
    night: tuple[NightStep, ...]
    optional_roles: tuple[str, ...] = ()  # roles a [roles] table may add
    rules: dict[str, Option] = field(default_factory=dict)
    timers: dict[str, Option] = field(default_factory=dict)
    default_seats: int = 10
    extras: tuple[str, ...] = ()  # second-deal flags (lovers, kamikaze) a deal may add
    cues: dict[str, str] = field(default_factory=dict)  # timer -> the rule giving its spoken cue (seconds before the end)
    # the counts a role may have at a table, where its seed names one (the Don, the Sheriff) or a
    # pair (the freemasons): (allowed counts, the seed's words)
    counts: dict[str, tuple[tuple[int, ...], str]] = field(default_factory=dict)
    # roles the seed offers as alternatives, never together at one table: (the roles, the seed's words)
    exclusive: tuple[tuple[tuple[str, ...], str], ...] = ()

    def roles_for(self, seats: int, overrides: dict[str, int] | None = None) -> dict[str, int]:
        counts = dict(self.table(seats))
        for role, n in (overrides or {}).items():
            counts[role] = n
        return {r: n for r, n in counts.items() if n}

    def step_roles(self) -> set[str]:
        return {r for s in self.night_zero + self.night for r in s.actors}


def _step(name, actors, action, wake, sleep, timer="night_step", **kw):
    return NightStep(name, tuple(actors), action, wake, sleep, timer, **kw)


# ---------------------------------------------------------------- classic (seeds 002, 004)
def classic_table(seats: int) -> dict[str, int]:
    # 10 seats: 3 black of 10 (seed 004 §1). Above 10 (seed 002) the extra roles come from
    # the config's [roles]; the mafia keeps about three in ten by default.
    black = max(3, round(seats * 0.3))
    return {"don": 1, "mafia": black - 1, "sheriff": 1}


CLASSIC_NIGHT = (
    _step("putana_visits", ["putana"], "block", "putana_wakes", "putana_sleeps"),
    _step("mafia_shoots", ["don", "mafia"], "shoot", "mafia_wakes_shoot", "mafia_sleeps"),
    _step("don_checks", ["don"], "check_sheriff", "don_wakes_check", "don_sleeps"),
    _step("sheriff_checks", ["sheriff"], "check_mafia", "sheriff_wakes_check", "sheriff_sleeps"),
    _step("policeman_checks", ["policeman"], "check_mafia", "policeman_wakes", "policeman_sleeps"),
    _step("doctor_saves", ["doctor"], "protect", "doctor_wakes", "doctor_sleeps"),
    _step("maniac_kills", ["maniac"], "kill_alone", "maniac_wakes", "maniac_sleeps"),
)

CLASSIC = Variant(
    name="classic",
    seats=(10, 20),
    day="classic",
    table=classic_table,
    night_zero=(
        # seed 004 §4.2: the Don shows himself, the mafia meet, the Sheriff meets the host
        _step("don_meets", ["don"], None, "don_wakes_meet", "don_sleeps", "night_zero_step"),
        _step("mafia_meets", ["don", "mafia"], None, "mafia_wakes_meet", "mafia_sleeps", "mafia_meeting"),
        _step("sheriff_meets", ["sheriff"], None, "sheriff_wakes_meet", "sheriff_sleeps", "night_zero_step"),
    ),
    # seed 002: Путана, Мафия, Дон, Шериф, Доктор, Маньяк (the Policeman, unplaced there, checks after the Sheriff)
    night=CLASSIC_NIGHT,
    optional_roles=("putana", "policeman", "maniac", "doctor"),
    rules={
        # the classic day follows seed 004 (speeches, the vote, last words, fouls), so its opener does too
        "day_opener": Option("day_number", str, "seed 004 §4.3: day N opens with player N («player 1 during first day, player 2 during second day and so on»), a dead one's turn passing to the next living seat; \"after_previous\": seed 002, the living player after the previous day's opener", choices=("day_number", "after_previous")),
        "single_nominee_eliminated": Option(True, bool, "VARIANTS.md classic [decide]: FIIM practice, a single nominee after day 1 leaves (seed 004 §4.4 counts every silent vote for the last candidate, so a vote on him alone could only send him out); false: a yes-or-no vote, and he leaves with more than half of the living for it (seed 002 «набрала большинство голосов»)"),
        "first_day_single_nominee_vote": Option(False, bool, "seed 004 §4.4: on the first day a single nominee means no vote; true: the yes-or-no vote of single_nominee_eliminated = false"),
        "last_words": Option(True, bool, "seed 004 §4.4: the eliminated player has last words"),
        "last_words_after_shot": Option(True, bool, "seed 004 §4.5: a shot player has last words at dawn"),
        "tie_speeches": Option(True, bool, "seed 004 §4.4: tied players speak 30 s before the re-vote"),
        "vote_call": Option("each", str, "seed 004 §4.4: «Vote casting is performed in sequence the submissions were made … right after vote for certain candidate has been announced and before host says \"Stop\"» — each candidate called in turn with his own window (timers.vote_each); \"together\": one window for every candidate (timers.vote), for clubs that vote on phones", choices=("each", "together")),
        "three_way_tie_twice_ends": Option(True, bool, "seed 004 §7: three or more tied twice end the vote"),
        "draw_after_quiet_cycles": Option(3, int, "seed 004 §7: three day+night cycles with nobody leaving is a draw", 0, 20),
        "self_nomination": Option(True, bool, "seeds silent: a player may nominate himself"),
        "fouls": Option(True, bool, "seed 004 §5-7: the host gives fouls, disqualifies a player and gives a team the defeat"),
        "speech_warning": Option(10, int, "sports-mafia club practice: the host says «десять секунд» ten seconds before a speech ends (0: never)", 0, 60),
        "town_wins_while_maniac_lives": Option(False, bool, "seed 002 gives the town the win «когда устранена вся «Мафия»» in the ten-seat game and names the Маньяк above ten without his powers; as a killer of his own side (VARIANTS.md) he still threatens the town, so by default the town has not won while he lives"),
    },
    cues={"speech": "speech_warning", "tie_speech": "speech_warning", "last_words": "speech_warning"},
    counts={
        "don": ((0, 1), "seed 004 §1: «3 \"black\" or mafia cards, one of them is a \"Don\" card»"),
        "sheriff": ((0, 1), "seed 004 §1: «7 \"red\" or citizen cards, one of them is a \"Sheriff\" card»"),
        **{r: ((0, 1), "seed 002 adds ««Путана», «Полицейский», «Маньяк», «Доктор»» above ten players, one of each")
           for r in ("putana", "policeman", "maniac", "doctor")},
    },
    timers={
        "speech": Option(60, int, "seed 004 §4.3: one minute per speech", 5, 600),
        "tie_speech": Option(30, int, "seed 004 §4.4: 30 s for each tied player", 5, 300),
        "last_words": Option(60, int, "seed 004 §4.4 (seed 002 says 30 s)", 5, 300),
        "fouled_turn": Option(10, int, "seed 004 §6: a player with 3 fouls skips his speech but may still nominate", 3, 60),
        "vote": Option(20, int, "seed 004 §4.4: ~2 s a candidate; with rules.vote_call = \"together\" the one window for every candidate, and the window of the yes-or-no votes", 3, 120),
        # Two seconds per the seed, phones too: a phone gets the called candidate's button as the
        # call is queued and its countdown once the call has been heard (hub timer_started), so a
        # phone has the call's own words and then the seed's two seconds, as a fist has
        "vote_each": Option(2, int, "seed 004 §4.4: «Approximate time to cast a vote is 2 seconds» — each candidate's window when rules.vote_call = \"each\"", 2, 30),
        "night_step": Option(10, int, "seed 004 §4.2: a check is limited to 10 s", 3, 120),
        "night_zero_step": Option(10, int, "seed 004 §4.2", 3, 120),
        "mafia_meeting": Option(60, int, "seed 002: the mafia agree the order of kills", 5, 300),
    },
)


# ---------------------------------------------------------------- sverige (seed 000)
def sverige_table(seats: int) -> dict[str, int]:
    # The seed's diagram is missing. The mafia count comes from scripts/balance.py (README,
    # Balance): a quarter up to ten players, where the village must catch every mafioso, and
    # about 29 % above ten, where the organisation rule helps the village. The doctor "almost
    # always", the sheriff above nine players, the avenger from 18 (seed 000).
    mafia = round(seats / 4 - 0.01) if seats <= 10 else round(seats * 0.29)
    table = {"mafia": max(1, mafia), "doctor": 1 if seats >= 6 else 0}
    if seats > 9:
        table["sheriff"] = 1
    if seats >= 18:
        table["avenger"] = 1
    return table


SVERIGE = Variant(
    name="sverige",
    seats=(5, 30),
    day="sverige",
    table=sverige_table,
    night_zero=(
        _step("mafia_sees", ["mafia"], None, "mafia_wakes_see", "mafia_sleeps", "night_zero_step"),
        _step("freemasons_meet", ["freemason"], None, "freemasons_wake_meet", "freemasons_sleep", "night_zero_step"),
    ),
    night=(
        _step("mafia_kills", ["mafia"], "shoot", "mafia_wakes_kill", "mafia_sleeps"),
        _step("doctor_saves", ["doctor"], "protect", "doctor_wakes", "doctor_sleeps"),
        _step("sheriff_team", ["sheriff"], "check_team", "sheriff_wakes_team", "sheriff_sleeps"),
        _step("avenger_shoots", ["avenger"], "kill_alone", "avenger_wakes", "avenger_sleeps"),
    ),
    optional_roles=("doctor", "sheriff", "freemason", "avenger"),
    rules={
        "organisation_rule": Option(True, bool, "seed 000 Mål: above ten players the village wins when one mafioso is left"),
        "doctor_repeat_after_save": Option(True, bool, "seed 000: the doctor may protect the same person again only after a successful save"),
        "announce_attempts": Option(True, bool, "seed 000 Natt: the morning tells of a murder attempt, not on whom"),
        "day_warning": Option(60, int, "seed 000 Tid: the host keeps the day's time; a spoken minute's warning («en minut kvar») is convention practice; seconds before the end (0: never)", 0, 600),
        "speech_warning": Option(0, int, "seed 000 Tal: «upp till ungefär två minuter», no cue; seconds before a nominee's speech ends when the host says so (0: never)", 0, 60),
        "hang_without_votes": Option(False, bool, "seed 000 Röstning: «Spelaren som får högst antal röster hängs»; with no hand raised at all nobody got the most votes, so nobody is hanged"),
    },
    cues={"first_day": "day_warning", "day": "day_warning", "extension": "day_warning", "nominee_speech": "speech_warning"},
    counts={
        "freemason": ((0, 2), "seed 000: «Frimurarna är två spelare som väcks samtidigt»"),
        "doctor": ((0, 1), "seed 000: «Läkaren får … säkra någon»"),
        "sheriff": ((0, 1), "seed 000: «Sheriffen får … reda på valfri persons lagtillhörighet»"),
        "avenger": ((0, 1), "seed 000: «Hämnaren får … skjuta någon»"),
    },
    # both bring the village knowledge; the seed gives a table one or the other, never both
    exclusive=((("sheriff", "freemason"), "seed 000: «kör med antingen sheriff eller frimurare om ni är fler än nio spelare»"),),
    timers={
        "first_day": Option(900, int, "seed 000 Tid: the first day is 15 minutes", 60, 3600),
        "day": Option(600, int, "seed 000 Tid: later days are 10 minutes", 60, 3600),
        "extension": Option(180, int, "seed 000 Tid: one time extension per day (the diagram is missing: 3 min)", 30, 900),
        "extension_offer": Option(10, int, "seed 000 Tid: when the time is up the host asks whether anybody wants the extension; the seed gives no time to answer, 10 s is the narrator's", 3, 60),
        "last_call": Option(3, int, "seed 000 Nominering: about three seconds after the previous speaker", 2, 15),
        "nominee_speech": Option(120, int, "seed 000 Tal: up to about two minutes", 15, 600),
        "hand_vote": Option(5, int, "seed 000 Röstning: hands on NOW; late hands do not count", 2, 30),
        "night_step": Option(20, int, "seed 000 Natt: the host wakes the active roles one after another, each in its own part; the seed gives no length, 20 s is the narrator's, the same for every part", 3, 120),
        "night_zero_step": Option(15, int, "seed 000: the mafia, then the freemasons, wake at night zero to see each other; the seed gives no length, 15 s is the narrator's", 3, 120),
    },
    default_seats=12,
)


# ---------------------------------------------------------------- hungariq (seed 001)
def hungariq_table(seats: int) -> dict[str, int]:
    # seed 001 Arányok: 10-13 players 3 mafiosi (one protected), 14-16 four; one inspector
    mafiosi = 3 if seats <= 13 else 4
    if seats < 10:
        mafiosi = max(1, seats // 4)
    table = {"mafia": mafiosi - 1, "protected_mafia": 1, "inspector": 1}
    return table


HUNGARIQ = Variant(
    name="hungariq",
    seats=(6, 20),
    day="hungariq",
    table=hungariq_table,
    night_zero=(
        _step("inspector_meets", ["inspector"], None, "inspector_wakes_meet", "inspector_sleeps", "night_zero_step"),
        _step("mafia_sees", ["mafia", "protected_mafia", "kamikaze_mafia"], None, "mafia_wakes_meet_protected", "mafia_sleeps", "night_zero_step",
              wake_without=("protected_mafia", "mafia_wakes_see")),
        _step("lovers_meet", ["lover"], None, "lovers_wake_meet", "lovers_sleep", "night_zero_step"),
    ),
    night=(
        _step("inspector_checks", ["inspector"], "inspect", "inspector_wakes", "inspector_sleeps"),
        _step("bodyguard_protects", ["bodyguard"], "protect", "bodyguard_wakes", "bodyguard_sleeps"),
        _step("sarika_votes", ["sarika"], "sarika", "sarika_wakes", "sarika_sleeps"),
        _step("mafia_votes", ["mafia", "protected_mafia", "kamikaze_mafia"], "mafia_vote", "mafia_vote_reading", "mafia_sleeps", "name_reading"),
        _step("vogon_watches", ["vogon"], "watch", "vogon_wakes", "vogon_sleeps"),
    ),
    optional_roles=("collaborator", "vogon", "bodyguard", "sarika", "protected_citizen", "grocer", "kamikaze_citizen", "kamikaze_mafia"),
    extras=("lover", "kamikaze"),
    rules={
        "accusations_per_day": Option(3, int, "seed 001: the day ends with a death or when long enough (usually three accused)", 1, 20),
        "failed_accusations_count": Option(False, bool, "seed 001: «általában három vádlott tárgyalása» counts trials, and a trial (the discussion of the accused) follows only an accusation that won its support vote"),
        "pardon_every_sentence": Option(True, bool, "seed 001: the protected citizen «Nappali halálos ítélet esetén játékvezetői kegyelemben részesül» — at a day death sentence, with no count; false: pardoned once only"),
        "mafia_majority_above_three": Option(True, bool, "seed 001: with more than three living mafiosi, 3 of 4 or 3 of 5 suffice"),
        "second_check_reveals_protected": Option(True, bool, "seed 001 extra rule 2: a second check of the protected mafioso reads yes"),
        "endgame_without_nights": Option(True, bool, "seed 001: two citizens and one mafioso left — no more nights"),
        "speech_warning": Option(0, int, "seed 001: «Az utolsó szóba már senki sem szólhat bele» — the last word is not interrupted, so no cue by default; seconds before it ends when the host says so (0: never)", 0, 60),
    },
    cues={"last_word": "speech_warning"},
    counts={
        "protected_mafia": ((0, 1), "seed 001: «maffiózók (közülük egy védett maffiózó)»"),
        "inspector": ((0, 1), "seed 001: «Szerepek: … felügyelő»; «a felügyelőt, hogy nyissa ki a szemét»"),
        **{r: ((0, 1), "seed 001 names each optional role once («kamikáze polgár, kamikáze maffiózó», «Sárika néni», …)")
           for r in ("collaborator", "vogon", "bodyguard", "sarika", "protected_citizen", "grocer",
                     "kamikaze_citizen", "kamikaze_mafia")},
    },
    timers={
        "day": Option(1200, int, "seed 001: the day goes on until a death or enough accusations", 60, 7200),
        "support_vote": Option(5, int, "seed 001: hands up on a count of three", 2, 30),
        "debate": Option(180, int, "seed 001: discussion of the accused", 15, 1800),
        "last_word": Option(60, int, "seed 001: the accused's last word, uninterrupted", 10, 300),
        "execution_vote": Option(5, int, "seed 001: hands up on a count of three", 2, 30),
        "kamikaze": Option(15, int, "seed 001: the kamikaze names his companion at once", 3, 60),
        "night_step": Option(15, int, "seed 001: the inspector points and the host answers silently (the optional roles each in their own part); the seed gives no length, 15 s is the narrator's", 3, 120),
        "night_zero_step": Option(15, int, "seed 001: the inspector, then the mafia with the protected mafioso, show themselves to the host at night zero; the seed gives no length, 15 s is the narrator's", 3, 120),
        "name_reading": Option(30, int, "seed 001: the host reads the living names slowly", 5, 120),
    },
    default_seats=12,
)


# ---------------------------------------------------------------- grundregeln (seed 003)
def grundregeln_table(seats: int) -> dict[str, int]:
    # seed 003 points to tested configurations that are not in it. Since the mafia must kill every
    # good player to win, scripts/balance.py finds about one in three nearest to even.
    return {"mafia": max(1, round(seats / 3))}


GRUNDREGELN = Variant(
    name="grundregeln",
    seats=(4, 30),
    day="grundregeln",
    table=grundregeln_table,
    night_zero=(),  # seed 003: "Das Spiel beginnt mit einer Nacht" in which the mafia already kill
    night=(
        _step("mafia_kills", ["mafia"], "shoot", "mafia_wakes_kill", "mafia_sleeps"),
        # seed 003: «dass die Mafiosi dem Spielleiter eine Todesart mitteilen müssen»
        _step("mafia_chooses_manner", ["mafia"], "manner", "mafia_wakes_manner", "mafia_sleeps", when="manner_of_death", continues=True),
    ),
    rules={
        "manner_of_death": Option(False, bool, "seed 003: «Oft wird mit der Regel gespielt, dass die Mafiosi dem Spielleiter eine Todesart mitteilen müssen» — the mafia choose one of eight by its number, the narrator announces it in the morning"),
        "day_warning": Option(0, int, "seed 003: the discussion runs «bis sich die Meinung abzeichnet», no clock to warn of; seconds before the discussion timer ends when the host says so (0: never)", 0, 600),
        "speech_warning": Option(0, int, "seed 003: the defences have no set length; seconds before a defence ends when the host says so (0: never)", 0, 60),
        "tie_break": Option("last_dead", str, "seed 003: «Ist keine andere Regel vereinbart (z.B Pechvogel oder Schwarzer), entscheidet bei einer Pattsituation der letzte Tote» — the seed leaves the table another rule; \"nobody\": a tied final vote lynches nobody", choices=("last_dead", "nobody")),
        "last_words": Option(False, bool, "seed 003 says nothing of last words: the two nominees «bekommen … noch einmal die Gelegenheit, sich zu verteidigen», then «wird endgültig abgestimmt, wer gelyncht wird» and the night follows — the defence is the last word, so the lynched leaves in silence (true: he has timers.last_words first)"),
    },
    cues={"discussion": "day_warning", "defence": "speech_warning", "last_words": "speech_warning"},
    timers={
        "discussion": Option(600, int, "seed 003: the group discusses until opinions form", 30, 3600),
        "vote": Option(15, int, "seed 003: everyone points on the host's command", 3, 120),
        "defence": Option(60, int, "seed 003: the two nominees defend themselves", 10, 600),
        "last_words": Option(30, int, "seed 003 has none (rules.last_words, off by default): when a table gives them, a few sentences, half a defence", 5, 300),
        "night_step": Option(30, int, "seed 003 Nachtphase: the mafia agree on a victim «über Augenkontakt, Gesten und Zeichen»; the seed gives no length, 30 s is the narrator's", 3, 300),
    },
    default_seats=8,
)

VARIANTS = {v.name: v for v in (CLASSIC, SVERIGE, HUNGARIQ, GRUNDREGELN)}
