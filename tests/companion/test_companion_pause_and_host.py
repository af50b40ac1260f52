"""One pause for every host, and phones that respect it — through the real companion server
(WebSocket phones and host screens, the live loop):

- a phone table's nights run their full time: `pause` at night is refused to the host who asked —
  on his host screen only (a "refused" frame, never a line said into the night nor a caption on
  the phones), and the console's `pause` at that table alike; the host screen offers no Pause at
  night, and a forged one is still refused;
- by day a pause holds the table's inputs: a phone's vote reads "The game is paused." on that phone
  alone and changes nothing, the phones' screen says paused (their buttons are greyed in the page),
  the host screen offers only Resume and refuses its other buttons; at resume the same screen (the
  same epoch, the narrator's words) comes back and the vote is taken;
- the host screen offers only what the rules take now (seed 004 §4.4: a withdrawal of the
  speaker's own nomination in his speech; no nomination at night), and the server refuses what it
  does not offer, logged, with nothing changed;
- a Swedish day's time extension (seed 000 Tid: «Endast ett tidstillägg per dag») asked by the
  console and a phone in the same instant: the first request the game takes wins, the other is
  told it was already used — the phone on its own screen, never the table;
- a paused game that crashes comes back as it stood at the pause: nothing tapped during the pause
  was journaled, and the speaker's time is what the pause left him.
"""

from __future__ import annotations

import asyncio
import io
import json

from rich.console import Console
from narrator.companion.testing import connect, host_hello  # as the server's own pages connect

from narrator.companion.testing import CLASSIC_DEAL, ManualClockSession, Table, until
from narrator.config import parse_config
from narrator.console import console_line
from narrator.flow.effects import Record, Reject
from narrator.flow.events import EndSpeech, Nominate, Tap
from narrator.journal import Journal, read

VOTES = "[companion]\nvotes = true\n"


class Heard:
    """What the game said or showed to the table: every public line and refusal, in order."""

    def __init__(self):
        self.public: list[str] = []
        self.rejects: list[Reject] = []

    def handle(self, effect, text):
        if isinstance(effect, Reject):
            self.rejects.append(effect)
            if effect.seat is None:
                self.public.append(effect.line)


async def host(t: Table):
    # its frames are read only where a test looks for one: with websockets' bounded queue the
    # unread ones stopped the socket's reading, and its close waited out the 10 s close timeout
    ws = await connect(t.ws_url, max_queue=None)
    await ws.send(json.dumps(host_hello(t.companion.hub)))  # the terminal's link: no PIN
    assert json.loads(await ws.recv())["t"] == "host"
    return ws


async def frames_until(ws, kind: str, timeout: float = 5.0) -> dict:
    end = asyncio.get_running_loop().time() + timeout
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), max(0.05, end - asyncio.get_running_loop().time())))
        if frame["t"] == kind:
            return frame


async def to_the_vote(t: Table) -> None:
    """Day 1 of a classic table: players 1 and 2 nominate 5 and 6 in their speeches (a lone
    nominee of the first day is not voted on, seed 004 §4.5); the speeches end; the vote."""
    await t.to_first_day()
    for seat in (5, 6):
        t.live.submit_event(Nominate(seat))
        t.live.submit_event(EndSpeech())
        await t.settle()
    await t.end_speeches()
    await until(lambda: t.live.game.awaiting()[0] == "awaiting_votes", what="the vote")
    await t.settle()


def test_a_phone_tables_night_is_not_paused_by_any_host_and_only_the_asker_reads_why():
    async def main():
        async with Table(parse_config(CLASSIC_DEAL)) as t:
            heard = Heard()
            t.live.outputs.append(heard)
            phones = await t.join_all()
            hub = t.companion.hub
            await t.to_night_one()
            await t.settle()
            frame = hub.host_frame()
            assert "pause" not in frame["controls"] and "resume" not in frame["controls"]
            asker, other = await host(t), await host(t)
            captions = {s: p.screen["caption"] for s, p in phones.items()}
            await asker.send(json.dumps({"t": "pause"}))  # forged: the screen shows no Pause now
            refused = await frames_until(asker, "refused")
            assert refused["text"] == hub.word("host_pause_at_night")
            await t.settle()
            assert not t.live.paused and t.live.game.state == "night"
            assert "paused" not in heard.public and not heard.rejects, "nothing said into the night"
            assert {s: p.screen["caption"] for s, p in phones.items()} == captions
            assert hub.refused[-1] == ("pause: pause_at_night", None)
            with_other = []
            try:
                while True:
                    with_other.append(json.loads(await asyncio.wait_for(other.recv(), 0.3))["t"])
            except asyncio.TimeoutError:
                pass
            assert "refused" not in with_other, "the other host screen is not told"
            # the console at the same table gets the same answer, on its screen only
            out = io.StringIO()
            console_line(t.live, "pause", Console(file=out, width=300, color_system=None))
            await until(lambda: "night steps are not paused" in out.getvalue(), what="the console's answer")
            assert not t.live.paused
            for ws in (asker, other):
                await ws.close()

    asyncio.run(main())


def test_a_pause_by_day_holds_the_phones_and_the_host_screen_and_resume_brings_the_screen_back():
    async def main():
        async with Table(parse_config(CLASSIC_DEAL + VOTES)) as t:
            heard = Heard()
            t.live.outputs.append(heard)
            phones = await t.join_all()
            hub = t.companion.hub
            await to_the_vote(t)
            before = phones[7].screen
            assert before["ask"] == "seat" and not before["paused"]
            screen_host = await host(t)
            await screen_host.send(json.dumps({"t": "pause"}))
            await until(lambda: t.live.paused, what="the pause")
            await until(lambda: phones[7].screen["paused"], what="the paused screen")
            paused = phones[7].screen
            assert paused["epoch"] == before["epoch"] and paused["caption"] == t.live.voice.render("paused")
            assert hub.host_frame()["controls"] == ["resume", "reissue"]
            # the host reads what the game waits for now: his Resume, not the votes it holds
            waiting = hub.host_frame()["awaiting"]
            assert waiting == "you to tap Resume — the game is paused", waiting
            # a phone's vote during the pause: its own answer, nothing changes, nothing to the table
            said = list(heard.public)
            ack = await phones[7].tap(target=5)
            assert not ack["ok"] and ack["text"] == t.live.voice.render("paused")
            await t.settle()
            assert t.recorded("vote", "voter") == [] and heard.public == said
            assert ("paused", 7) in hub.refused
            # the host screen's End speech, a nomination, a second pause: not offered, refused
            for msg in ({"t": "end_speech"}, {"t": "nominate", "seat": 3}, {"t": "foul", "seat": 2}):
                await screen_host.send(json.dumps(msg))
            await screen_host.send(json.dumps({"t": "pause"}))
            assert (await frames_until(screen_host, "refused"))["text"] == hub.word("host_already_paused")
            await t.settle()
            assert ("end_speech: not on the host screen now", None) in hub.refused
            assert ("nominate: not on the host screen now", None) in hub.refused
            assert t.live.game.awaiting()[0] == "awaiting_votes" and t.live.game.seats[2].fouls == 0
            # the console's vote during the pause is held back too, and said so
            out = io.StringIO()
            console_line(t.live, "tap 8 5", Console(file=out, width=300, color_system=None))
            await t.settle()
            assert t.recorded("vote", "voter") == []
            # resume: the same screen, the narrator's words back, and the vote is taken
            await screen_host.send(json.dumps({"t": "resume"}))
            await until(lambda: not phones[7].screen["paused"], what="the resumed screen")
            assert phones[7].screen["epoch"] == before["epoch"] and phones[7].screen["caption"] == before["caption"]
            assert "pause" in hub.host_frame()["controls"]
            assert hub.host_frame()["awaiting"].startswith("votes from seats"), hub.host_frame()["awaiting"]
            ack = await phones[7].tap(target=5)
            assert ack["ok"]
            await t.settle()
            assert t.recorded("vote", "voter") == [(7,)]
            await screen_host.send(json.dumps({"t": "resume"}))
            assert (await frames_until(screen_host, "refused"))["text"] == hub.word("host_not_paused")
            await screen_host.close()

    asyncio.run(main())


def test_the_host_screen_offers_only_what_the_rules_take_now_and_the_server_refuses_the_rest():
    async def main():
        async with Table(parse_config(CLASSIC_DEAL)) as t:
            await t.join_all()
            hub = t.companion.hub
            await t.to_first_day()
            await t.settle()
            # player 1's speech: nothing of his nominated yet, so no withdrawal (seed 004 §4.4)
            assert "revoke" not in hub.host_controls() and "nominate" in hub.host_controls()
            screen_host = await host(t)
            await screen_host.send(json.dumps({"t": "revoke"}))
            await t.settle()
            assert hub.refused[-1] == ("revoke: not on the host screen now", None)
            assert not t.recorded("rejected", "event"), "the rules never saw it"
            await screen_host.send(json.dumps({"t": "nominate", "seat": 6}))
            await until(lambda: t.recorded("nomination", "seat") == [(6,)], what="the nomination")
            await t.settle()
            assert "revoke" in hub.host_controls()  # his own, in his own speech
            await screen_host.send(json.dumps({"t": "revoke"}))
            await until(lambda: t.recorded("revocation", "seat") == [(6,)], what="the withdrawal")
            # the night: no nomination, no End speech, no leave, no pause; the referee's fouls stay
            await t.end_speeches()
            await until(lambda: t.live.game.state == "night", what="the night")
            await t.settle()
            assert hub.host_controls() == ["foul", "disqualify", "defeat", "reissue"]
            t.forget()
            for msg in ({"t": "nominate", "seat": 6}, {"t": "end_speech"}, {"t": "leave", "seat": 6}):
                await screen_host.send(json.dumps(msg))
            await t.settle()
            assert hub.refused[-3:] == [(f"{m}: not on the host screen now", None) for m in ("nominate", "end_speech", "leave")]
            assert not t.recorded("input", "event") and not t.recorded("rejected", "event")
            await screen_host.close()

    asyncio.run(main())


def test_a_swedish_host_screen_nominates_and_withdraws_naming_the_nominator():
    """Seed 000 Nominering: «Varje enskild spelare får ha endast en nominerad i taget och endast
    den som nominerade en viss person får avnominera» — a nomination is its nominator's. The host
    screen (for a player without a phone) names him beside the nominee; one without a nominator is
    refused on that screen alone, and outside the discussion and the last call nothing is taken."""
    cfg = parse_config('variant = "sverige"\nlanguage = "sv"\nseats = 10\n'
                       '[dealing]\nroles = { 1 = "mafia", 2 = "mafia", 3 = "doctor", 4 = "sheriff" }\n')

    async def main():
        async with Table(cfg) as t:
            await t.join_all()
            await t.to_first_day()
            await t.settle()
            hub, game = t.companion.hub, t.live.game
            # nobody has a nominee yet: nothing to withdraw
            assert hub.host_controls() == ["pause", "nominate", "reissue"]
            assert hub.host_frame()["nominator"] is True
            assert hub.page_words()["host_revoke"] == "Avnominera"
            screen_host = await host(t)
            t.forget()
            # no nominator, or one that is no seat number: said to this host, the game never sees it
            for msg in ({"t": "nominate", "seat": 6}, {"t": "nominate", "seat": 6, "by": "3"}):
                await screen_host.send(json.dumps(msg))
                told = await frames_until(screen_host, "refused")
                assert told["text"] == "Skriv platsen för den som nominerar under ”Nominerad av” och tryck sedan på ”Nominera” igen."
            await screen_host.send(json.dumps({"t": "nominate", "by": 3}))
            told = await frames_until(screen_host, "refused")
            assert told["text"] == "Skriv först platsnumret under ”Plats” och tryck sedan på ”Nominera” igen."
            await t.settle()
            assert not t.recorded("input", "event") and game.noms == {}
            await screen_host.send(json.dumps({"t": "nominate", "seat": 6, "by": 3}))
            await until(lambda: t.recorded("nomination", "by", "seat") == [(3, 6)], what="the nomination")
            await t.settle()
            assert "revoke" in hub.host_controls()
            # one active nominee each: the rules answer as they answer a voice
            await screen_host.send(json.dumps({"t": "nominate", "seat": 7, "by": 3}))
            await until(lambda: t.recorded("rejected", "reason")[-1:] == [("reject_active_nominee",)], what="the refusal")
            # only the nominator withdraws; without him the host is asked who
            await screen_host.send(json.dumps({"t": "revoke"}))
            told = await frames_until(screen_host, "refused")
            assert told["text"] == "Skriv platsen för den som nominerade under ”Nominerad av” och tryck sedan på ”Avnominera” igen."
            await screen_host.send(json.dumps({"t": "revoke", "by": 5}))   # seat 5 has nominated nobody
            await until(lambda: t.recorded("rejected", "reason")[-1:] == [("reject_nothing_to_withdraw",)], what="the refusal")
            assert game.noms == {3: 6}
            await screen_host.send(json.dumps({"t": "revoke", "by": 3}))
            await until(lambda: t.recorded("revocation", "by", "seat") == [(3, 6)], what="the withdrawal")
            await t.settle()
            assert game.noms == {} and "revoke" not in hub.host_controls()
            # the last call takes nominations too (seed 000: «sista nominering och avnominering»)
            await screen_host.send(json.dumps({"t": "nominate", "seat": 2, "by": 4}))
            await until(lambda: game.noms == {4: 2}, what="the nomination")
            while game.state == "discussion":
                t.live.fire()
                await t.settle()
            assert game.state == "last_call" and {"nominate", "revoke"} <= set(hub.host_controls())
            await screen_host.send(json.dumps({"t": "nominate", "seat": 1, "by": 5}))
            await until(lambda: game.noms == {4: 2, 5: 1}, what="the last call's nomination")
            # the speeches: no nominating any more, and the server takes none
            t.live.fire()
            await until(lambda: game.state == "nominee_speeches", what="the speeches")
            await t.settle()
            assert hub.host_controls() == ["pause", "end_speech", "reissue"]
            t.forget()
            await screen_host.send(json.dumps({"t": "nominate", "seat": 6, "by": 7}))
            await screen_host.send(json.dumps({"t": "revoke", "by": 4}))
            await t.settle()
            assert hub.refused[-2:] == [("nominate: not on the host screen now", None), ("revoke: not on the host screen now", None)]
            assert not t.recorded("input", "event") and game.noms == {4: 2, 5: 1}
            await screen_host.close()

    asyncio.run(main())


SVERIGE = ('variant = "sverige"\nlanguage = "sv"\nseats = 10\n'
           '[dealing]\nroles = { 1 = "mafia", 2 = "mafia", 3 = "doctor", 4 = "sheriff" }\n')


async def to_the_question(t: Table) -> dict:
    """Every phone joined, the first day's discussion over and its extension asked about (seed 000
    Tid), the records so far forgotten: the phones, by seat."""
    phones = await t.join_all()
    await t.to_first_day()
    t.live.fire()
    await until(lambda: t.live.game.public_view()["timer"] == "extension_offer", what="the question")
    await t.settle()
    t.forget()
    return phones


def _tap_now(t: Table, seat: int) -> asyncio.Task:
    """Phone `seat`'s tap on the question, handed to the hub this very moment."""
    phone, hub = t.phones[seat], t.companion.hub
    phone.n += 1
    msg = {"t": "tap", "seat": seat, "n": phone.n, "epoch": phone.screen["epoch"], "answer": True}
    return asyncio.create_task(hub.message(hub.phones[seat], msg))


def test_the_console_asks_first_for_the_swedish_extension_and_the_phone_is_told_it_was_used():
    async def main():
        async with Table(parse_config(SVERIGE)) as t:
            heard = Heard()
            t.live.outputs.append(heard)
            phones = await to_the_question(t)
            question = phones[9].screen["epoch"]
            t.live.submit_line("extend")  # typed at the console: queued first
            await _tap_now(t, 5)           # the phone's, in the same instant
            ack = await asyncio.wait_for(phones[5]._acks.get(), 5)
            assert not ack["ok"] and ack["text"] == t.live.voice.render("reject_extension_used")
            assert ack["epoch"] == phones[5].screen["epoch"], "answered on the screen the phone shows"
            await t.settle()
            assert t.recorded("extension", "day") == [(1,)]
            # the console's request was granted: nobody, the console least, hears "already used"
            assert "reject_extension_used" not in heard.public and not t.recorded("rejected", "event")
            assert ("extension already asked", None) in t.companion.hub.refused
            # a slow phone's tap on the question, arriving after the console's grant: used, too
            phones[9].n += 1
            await phones[9].send({"t": "tap", "seat": 9, "n": phones[9].n, "epoch": question, "answer": True})
            late = await asyncio.wait_for(phones[9]._acks.get(), 5)
            assert not late["ok"] and late["text"] == t.live.voice.render("reject_extension_used")
            assert late["epoch"] == phones[9].screen["epoch"]
            assert t.recorded("extension", "day") == [(1,)] and "reject_extension_used" not in heard.public

    asyncio.run(main())


def test_the_phone_asks_first_for_the_swedish_extension_and_the_console_is_told_it_was_used():
    async def main():
        async with Table(parse_config(SVERIGE)) as t:
            heard = Heard()
            t.live.outputs.append(heard)
            phones = await to_the_question(t)
            tap = _tap_now(t, 5)
            await asyncio.sleep(0)         # the phone's Extend is queued first
            t.live.submit_line("extend")   # the console's, in the same instant
            await tap
            ack = await asyncio.wait_for(phones[5]._acks.get(), 5)
            assert ack["ok"] and ack["text"] == "Du har begärt tidstillägget."
            await t.settle()
            assert t.recorded("extension", "day") == [(1,)]
            assert t.recorded("rejected", "reason") == [("reject_extension_used",)]
            assert heard.public[-1] == "reject_extension_used"  # the console's own answer

    asyncio.run(main())


def test_a_paused_game_that_crashes_comes_back_as_it_stood_at_the_pause(tmp_path):
    """Seed 004 §4: a speaker's minute. Paused at 60 s, a phone's vote tap and the host screen's End
    speech during the pause change nothing and are not journaled; after the crash the resumed game
    is in the same speech with the time the pause left (noted at the pause), not a fresh minute."""
    cfg_text = CLASSIC_DEAL
    cfg = parse_config(cfg_text)
    path = tmp_path / "game.jsonl"

    async def main():
        journal = Journal.create(path, "club.toml", cfg_text, {})
        live = ManualClockSession(cfg, journal)
        task = asyncio.create_task(live.run(live.start_effects(), [live.session.dealing_event()]))
        await until(lambda: live.queue is not None and live.game.state != "setup")
        while live.game.state == "night":
            live.fire()
            await asyncio.sleep(0.02)
        await until(lambda: live.game.state == "speeches", what="the day")
        live.submit_control("pause")
        await until(lambda: live.paused, what="the pause")
        left = live.timer_remaining()
        written = len(read(path).events)
        live.submit_event(Tap(3, 5), source="companion")
        live.submit_event(EndSpeech(), source="companion-host")
        live.submit_event(Nominate(6), source="companion-host")
        await asyncio.sleep(0.05)
        assert len(read(path).events) == written and live.game.speaker == 1 and not live.game.public_nominations()
        task.cancel()  # the crash: the game stops where it stands
        try:
            await task
        except asyncio.CancelledError:
            pass
        journal.close()
        return left

    left = asyncio.run(main())
    contents = read(path)
    again = ManualClockSession(cfg, None)
    first = again.start_effects(replayed=contents.events, timer_marks=contents.timer_marks)
    assert again.game.state == "speeches" and again.game.speaker == 1
    assert not again.game.public_nominations()
    timer = [e for e in first if type(e).__name__ == "Timer"][-1]
    assert abs(timer.seconds - left) < 0.5, (timer.seconds, left)


def test_a_swedish_extension_asked_as_the_host_pauses_waits_for_resume_and_can_be_asked_again():
    """The phone's request reaches the game just after the host's Pause: nothing changes in the
    pause, the phone reads "The game is paused.", and after Resume the question still stands and
    the same phone's tap asks for it (seed 000 Tid: one extension a day, not none)."""
    async def main():
        async with Table(parse_config(SVERIGE)) as t:
            phones = await to_the_question(t)
            t.live.submit_control("pause")  # queued first
            await _tap_now(t, 5)             # the phone's, in the same instant
            ack = await asyncio.wait_for(phones[5]._acks.get(), 5)
            assert not ack["ok"] and ack["text"] == t.live.voice.render("paused")
            await t.settle()
            assert t.recorded("extension", "day") == [] and t.live.paused
            assert t.recorded("rejected", "reason") == [("paused",)], "held back by the game, not journaled"
            t.live.submit_control("resume")
            await until(lambda: not phones[5].screen["paused"], what="the resumed question")
            assert phones[5].screen["ask"] == "extension"
            again = await phones[5].tap(answer=True)
            assert again["ok"] and again["text"] == "Du har begärt tidstillägget."
            assert t.recorded("extension", "day") == [(1,)]

    asyncio.run(main())


PAUSED_WAITING = {
    "en": "you to tap Resume — the game is paused",
    "ru": "нажмите «Продолжить» — игра на паузе",
    "de": "„Weiter“ – das Spiel ist pausiert",
    "sv": "att du trycker Fortsätt – spelet är pausat",
    "hu": "a Folytatás gomb megnyomására – a játék szünetel",
}


def test_a_paused_host_screen_waits_for_its_resume_button_in_the_tables_language():
    """Seen on the host screen in a pause: «Waiting for: player 1 to finish speaking» — the speech
    is held, and only the host's Resume goes on. The screen names that button as it reads."""
    async def main(lang):
        async with Table(parse_config(CLASSIC_DEAL.replace('"en"', f'"{lang}"'))) as t:
            await t.join_all()
            hub = t.companion.hub
            await t.to_first_day()
            await t.settle()
            speaking = hub.host_frame()["awaiting"]
            screen_host = await host(t)
            await screen_host.send(json.dumps({"t": "pause"}))
            await until(lambda: t.live.paused, what="the pause")
            frame = hub.host_frame()
            assert frame["awaiting"] == PAUSED_WAITING[lang], frame["awaiting"]
            assert hub.word("host_resume") in frame["awaiting"]
            await screen_host.send(json.dumps({"t": "resume"}))
            await until(lambda: not t.live.paused, what="the resume")
            assert hub.host_frame()["awaiting"] == speaking
            await screen_host.close()

    for lang in PAUSED_WAITING:
        asyncio.run(main(lang))
