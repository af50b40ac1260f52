"""Through the real companion server (WebSocket phones, the live loop), with the config's [players]:

- every seat a phone names carries its player's name, as typed: the phase line ("Day: speeches —
  player 1 (<b>Ann</b>)"), the narrator's caption, a private night answer (the Sheriff's check,
  the mafia's "You chose 7 (…)"), the night findings held down under the role, the final roles —
  in Hungarian the ordinal keeps its noun ("7. játékos (Zsófi)"); spoken, the table hears numbers;
- with names, every answer and note frame of a game is one size, whoever it names, and a night
  still sends every phone the same frames of the same sizes whoever is awake;
- the host screen gets its labels and its line of nominees from the server (one place);
- the Swedish phone says «Du tillhör maffian» (seed 000: «en minoritet … är i maffialaget»);
- odd input to the server — a vote for a dead seat, a seat beyond the table, a double tap, a
  stale form, a non-number, another seat's name — gets a clear answer on that phone and changes
  nothing; a phone with only the key of an earlier game is told to scan its seat.
"""

from __future__ import annotations

import asyncio
import json

from narrator.companion.testing import connect  # from a page of the server itself (its Origin)

from narrator.companion.transport import FRAME, answer_size
from narrator.companion.testing import CLASSIC_DEAL, Phone, Table, until
from narrator.config import parse_config
from narrator.flow.events import Defeat, EndSpeech, Nominate, Tap

DON, MAFIA, SHERIFF = 1, (1, 2, 3), 4
NAMES = {1: "<b>Ann</b>", 2: "{seat}", 4: "Bo", 7: "Åsa-Maria Lindqvist-Bergström", 9: "Zsófi"}
PLAYERS = "[players]\n" + "".join(f"{s} = '{n}'\n" for s, n in NAMES.items())


def classic(lang: str = "en", extra: str = ""):
    return Table(parse_config(CLASSIC_DEAL.replace('language = "en"', f'language = "{lang}"') + extra + PLAYERS))


async def to_step(t: Table, name: str) -> None:
    while t.live.game.step.name != name:
        t.live.fire()
        await t.settle()


def test_the_phase_line_and_the_caption_name_the_speaker():
    async def main():
        async with classic() as t:
            phones = await t.join_all()
            await t.to_first_day()
            await until(lambda: phones[5].screen["state"] == "speeches")
            screen = phones[5].screen
            assert screen["phase"] == "Day: speeches — player 1 (<b>Ann</b>)"
            # the narrator's words of that moment, all of them: the dawn and the first turn
            assert screen["caption"] == "The Sheriff falls asleep. The city wakes up. Day 1. Player 1 (<b>Ann</b>), you have one minute."
            assert screen["labels"]["7"] == "7 (Åsa-Maria Lindqvist-Bergström)" and screen["labels"]["5"] == "5"
            assert {p.screen["phase"] for p in phones.values()} == {screen["phase"]}

    asyncio.run(main())


def test_a_check_result_and_a_mafia_choice_name_the_player_in_every_language():
    expected = {
        "en": ("Player 1 (<b>Ann</b>) is MAFIA.", "You chose 7 (Åsa-Maria Lindqvist-Bergström)"),
        "ru": ("Игрок 1 (<b>Ann</b>) — МАФИЯ.", "Вы выбрали 7 (Åsa-Maria Lindqvist-Bergström)"),
        "de": ("1 (<b>Ann</b>)", "7 (Åsa-Maria Lindqvist-Bergström)"),
        "sv": ("1 (<b>Ann</b>)", "7 (Åsa-Maria Lindqvist-Bergström)"),
        # the ordinal keeps its noun: "1. játékos (Ann)", never "1 (Ann). játékos"
        "hu": ("1. játékos (<b>Ann</b>): MAFFIÓZÓ.", "7 (Åsa-Maria Lindqvist-Bergström)"),
    }

    async def main(lang):
        async with classic(lang) as t:
            phones = await t.join_all()
            await t.to_night_one()
            acks = await asyncio.gather(*(phones[s].tap(7) for s in MAFIA))
            assert all(expected[lang][1] in a["text"] for a in acks), acks
            await to_step(t, "sheriff_checks")
            ack = await phones[SHERIFF].tap(DON)
            assert expected[lang][0] in ack["text"], ack["text"]
            t.live.fire()
            await until(lambda: phones[SHERIFF].checks, what="the finding held down")
            assert expected[lang][0] in phones[SHERIFF].checks[0]
            # spoken and at the console the line has the number only
            assert "Ann" not in t.live.voice.render("check_mafia", {"seat": DON})

    for lang in expected:
        asyncio.run(main(lang))


def test_with_names_every_answer_has_one_size_and_a_night_is_the_same_on_every_phone():
    async def main():
        async with classic() as t:
            phones = await t.join_all()
            hub = t.companion.hub
            assert hub.answer_size == answer_size(t.config.players) > FRAME
            await t.to_night_one()
            start = len(hub.sent)
            while t.live.game.state == "night":
                step = t.live.game.step.name
                # the awake ones choose the seat with the longest name, the others anything
                await asyncio.gather(*(p.tap(7 if step != "sheriff_checks" else DON) for p in phones.values()))
                t.live.fire()
                await t.settle()
            sent = hub.sent[start:]
            sizes: dict[int, list] = {}
            for f in sent:
                sizes.setdefault(f.seat, []).append((f.type, f.size))
            assert len({tuple(v) for v in sizes.values()}) == 1, "every phone got the same frames, the same size"
            assert {f.size for f in sent if f.type in ("ack", "note")} == {hub.answer_size}

    asyncio.run(main())


def test_the_longest_names_still_fit_the_answer_frame():
    # forty four-byte letters, and quotes JSON doubles: four of them beside the longest line
    names = {s: "𝔄" * 39 + '"' for s in range(1, 11)}
    size = answer_size(names)
    from narrator.companion.transport import pad

    text = "; ".join(f"{s} ({n})" for s, n in list(names.items())[:4])
    frame = {"t": "ack", "n": 10**6, "ok": False, "text": "x" * 700 + text, "epoch": 10**6}
    assert len(pad(frame, size).encode("utf-8")) == size


def test_the_host_screen_gets_its_labels_and_nominees_from_the_server():
    async def main():
        async with classic() as t:
            await t.join_all()
            await t.to_first_day()
            t.live.submit_event(Nominate(7))
            t.live.submit_event(EndSpeech())
            t.live.submit_event(Nominate(9))
            await t.settle()
            host = t.companion.hub.host_frame()
            assert host["nominees_text"] == "7 (Åsa-Maria Lindqvist-Bergström), 9 (Zsófi)"
            assert host["labels"]["2"] == "2 ({seat})" and host["labels"]["3"] == "3"
            assert host["caption"] == "9 (Zsófi) accepted."
            # in the host screen's own words: its End speech button, not the console's commands
            assert host["awaiting"] == "player 2 ({seat}) to finish speaking (or End speech)"
            assert host["phase"] == "Day: speeches — player 2 ({seat})", "a name like {seat} is text"

    asyncio.run(main())


def test_a_swedish_mafioso_belongs_to_the_mafia_and_a_citizen_is_a_villager():
    async def main():
        async with Table(parse_config('variant = "sverige"\nlanguage = "sv"\nseats = 10\n'
                                      '[dealing]\nroles = { 1 = "mafia", 2 = "mafia", 3 = "doctor", 4 = "sheriff" }\n')) as t:
            phones = await t.join_all()
            await t.to_first_day()
            await until(lambda: phones[1].role == "mafia" and phones[5].role == "citizen")
            role = {s: next(f for _, f, _ in reversed(p.frames) if f["t"] == "role") for s, p in phones.items()}
            assert role[1]["you_are"] == "Du tillhör maffian"
            assert role[5]["you_are"] == "Du är en bybo"
            assert role[3]["you_are"] == "Du är läkaren"

    asyncio.run(main())


def test_odd_input_gets_a_clear_answer_and_changes_nothing():
    async def main():
        async with classic(extra="[companion]\nvotes = true\n") as t:
            phones = await t.join_all()
            hub, game = t.companion.hub, t.live.game
            await t.to_night_one()
            await asyncio.gather(*(phones[s].tap(9) for s in MAFIA))
            await t.end_night()
            assert 9 not in game.alive
            await t.end_speeches(("last_words",))
            await t.to_classic_vote(7, 8)
            await until(lambda: phones[5].screen["state"] == "voting")
            t.forget()
            voter = phones[5]
            epoch = voter.screen["epoch"]

            async def send(**fields) -> dict:
                voter.n += 1
                await voter.send({"t": "tap", "seat": 5, "n": voter.n, "epoch": epoch, **fields})
                return await asyncio.wait_for(voter._acks.get(), 5)

            answers = {
                "dead seat": await send(target=9),
                "beyond the table": await send(target=42),
                "not a number": await send(target="seven"),
                "a fraction": await send(target=7.5),
                "another seat's": await send(target=7, seat=6),
                "a stale form": await send(target=7, epoch=epoch - 1),
            }
            for what, ack in answers.items():
                assert not ack["ok"] and ack["text"], what
            assert answers["dead seat"]["text"] == "Player 9 (Zsófi) is not on the ballot; vote for one of 7 (Åsa-Maria Lindqvist-Bergström) and 8."
            assert "42" in answers["beyond the table"]["text"]
            assert answers["not a number"]["text"] == hub.word("tap_not_understood")
            assert answers["another seat's"]["text"] == hub.word("tap_not_understood")
            assert answers["a stale form"]["text"] == "Too late: the game has moved on."
            assert t.recorded("vote", "voter", "seat") == []
            # a double tap: the vote counts once, and the second tap is answered as the first
            first = await send(target=7)                 # the one being called (seed 004 §4.4)
            second = await send(target=7)
            assert first["ok"] and second == dict(first, n=second["n"])
            assert t.recorded("vote", "voter", "seat") == [(5, 7)]
            # a reconnect shows the vote that stands
            again = Phone(t.ws_url, "")
            again.key = voter.key
            await again.join()
            await until(lambda: any(f["t"] == "note" for _, f, _ in again.frames))
            note = next(f for _, f, _ in again.frames if f["t"] == "note")
            # his vote is said once, in the line above the table, its button marked
            assert note["text"] == "" and note["chosen"] == "7"
            assert again.screen["voted"] == "You voted for player " + hub.seat_label(7) + "."
            await again.close()

    asyncio.run(main())


def test_a_phone_with_the_key_of_an_earlier_game_is_told_to_scan_its_seat():
    async def main():
        async with classic() as t:
            async with connect(t.ws_url, compression=None) as ws:
                await ws.send(json.dumps({"t": "hello", "key": "a-key-of-last-weeks-game"}))
                frame = json.loads(await asyncio.wait_for(ws.recv(), 5))
            assert frame == dict(frame, t="error", text="This link is not valid for this game. Scan your seat's QR code again.")
            assert t.companion.hub.phones == {}

    asyncio.run(main())


def test_a_team_defeat_with_a_name_reads_as_a_sentence_on_the_phones_and_is_spoken_as_ever():
    """Seed 004 §5 (a team defeat by the host): the English line says "Player 1's team"; with the
    name beside the number it was "Player 1 (<b>Ann</b>)'s team". The phones word it their own
    way ([phone] named_defeat_*), the host and the console keep the spoken line's words."""
    async def main():
        async with classic() as t:
            phones = await t.join_all()
            await t.to_first_day()
            t.live.submit_event(Defeat(1))  # seat 1 is the Don: the town wins
            await until(lambda: phones[5].screen["state"] == "over", what="the end")
            expected = "By the host's decision, the team of player 1 (<b>Ann</b>) loses. The town wins!"
            for phone in phones.values():
                assert expected in phone.screen["winner_text"], phone.screen["winner_text"]
                assert "'s team" not in phone.screen["winner_text"]
            assert t.live.voice.render("defeat_town_wins", {"seat": 1}) == "Player 1's team loses by the host's decision. The town wins!"

    asyncio.run(main())


def test_two_seats_in_a_line_each_carry_their_name():
    """Seed 000's hand vote: a hand for a name still to come is refused with "We are voting for player 7
    now; vote for player 9 when that name is called." — on a phone each seat has its player's name
    (one seat said twice in a line is named alike both times: tests/words/test_seat_named_alike.py)."""
    async def main():
        async with classic() as t:
            hub = t.companion.hub
            line = hub.named("reject_not_called_yet", {"seat": 7, "later": 9}, "")
            assert line == "We are voting for player 7 (Åsa-Maria Lindqvist-Bergström) now; vote for player 9 (Zsófi) when that name is called."
            turn = hub.named("reject_not_your_turn", {"seat": 9, "speaker": 1}, "")
            assert turn == "Player 9 (Zsófi), it is not your turn: player 1 (<b>Ann</b>) is speaking."
            # a seat without a name keeps the line's own words
            assert hub.named("reject_not_your_turn", {"seat": 5, "speaker": 6}, "x") == "x"

    asyncio.run(main())


def test_a_caption_names_a_player_once_however_many_lines_name_him():
    """Seed 004 §6 (the vote, the one voted out, his last words): the narrator names player 7
    three times at that moment; on a phone his long name is beside the first, the number after."""
    async def main():
        async with classic() as t:
            phones = await t.join_all()
            await t.to_first_day()
            await t.to_classic_vote(7, 8)
            for s in range(1, 11):
                t.live.submit_event(Tap(s, 7))               # every fist in 7's call, his own too
                await t.settle()
            await until(lambda: phones[5].screen["state"] == "last_words", what="the last words")
            caption = phones[5].screen["caption"]
            assert caption.count("Åsa-Maria Lindqvist-Bergström") == 1, caption
            assert caption.endswith("Player 7, your last words."), caption

    asyncio.run(main())
