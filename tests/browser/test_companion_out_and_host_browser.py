"""What the host screen and a player's own phone say at a table, in headless Chromium at 360×740.

- The host votes on nothing: where the phones ask the players («Támogatod a vádat? Vádlott: 4»)
  the host screen's heading describes the moment («Szavazás a vád támogatásáról – vádlott: 4»),
  and the phones keep their question.
- "Waiting for" lists the voters compactly — the seat number first, the name cut with "…" — and a
  tap on one shows the whole name: ten forty-letter names fit a small screen.
- A player the referee removes (seed 004 §5-7: a fourth foul, a disqualification) or who leaves the
  table reads on his own phone that he is out, in those words, not those of a death, and his taps
  are answered plainly — at the moment the table learns it. A removal given at night is the host's
  alone until the morning says it: until then his phone changes in nothing another player could see.
- A seat's link re-issued mid-game is on the printable seat cards at once, every other card as it
  was; the page is never written through a link or into another user's file, and a page that
  cannot be written is said to the host, not a crash.

Screenshots go to $NARRATOR_SHOTS when it is set.
"""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path

from chromium import expect, launched, need_browser
from narrator.companion.testing import Phone, Table, until
from narrator.config import parse_config
from narrator.flow.events import Nominate
from seat_pages import SMALL, seated, tap

SHOTS = Path(os.environ["NARRATOR_SHOTS"]) if os.environ.get("NARRATOR_SHOTS") else None

# ten names of forty characters (the most a name may have), as a club types them
LONG = {s: n[:40].rstrip(" -") for s, n in enumerate([
    "Alexandra-Konstantina Wolkenstein-Rodenegg", "Bartholomäus Friedrich von Hohenzollern-Sigmar",
    "Szőke-Kovácsné Erzsébet Mária Terézia Anna", "Åsa-Maria Lindqvist-Bergström af Ekenstam",
    "Констанция Вячеславовна Преображенская-Ильина", "Maximilian-Alexander Rosenthal-Schwarzenberg",
    "Hildegard Elisabeth Oberhauser-Kleinschmidt", "Jean-Baptiste Emmanuel Beaumont-Delacroix",
    "Ingeborg Charlotta Wachtmeister af Johannishus", "Nepomuk Wenzeslaus Kolowrat-Krakowsky II",
], start=1)}


async def shot(page, name: str) -> None:
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


async def host_page(browser, t: Table):
    page = await (await browser.new_context(viewport=SMALL)).new_page()
    await page.goto(t.host_link)
    await expect(page.get_by_test_id("state")).to_be_visible()
    return page


def config(variant: str, lang: str, roles: str, extra: str = "", names: dict | None = None):
    players = "".join(f"{s} = '{n}'\n" for s, n in (names or {}).items())
    return parse_config(f'variant = "{variant}"\nlanguage = "{lang}"\nseats = 10\n'
                        + (f"[players]\n{players}" if players else "")
                        + f"[dealing]\nroles = {{ {roles} }}\n[companion]\nvotes = true\n{extra}")


WIDE_JS = """() => {
  const w = document.documentElement.clientWidth;
  return document.documentElement.scrollWidth > w ? ["page scrolls sideways"] :
    Array.from(document.querySelectorAll("body *")).filter(el => { const r = el.getBoundingClientRect();
      return r.width && r.height && (r.right > w + 1 || r.left < -1); }).map(el => el.tagName + "#" + el.id + "." + el.className);
}"""


def test_a_hungarian_host_reads_what_the_table_votes_on_and_the_voters_compactly():
    # seed 001: «Vádat emelek XY ellen» — the accusation's support vote; the phones ask each player,
    # the host's screen says which vote runs and whose votes it waits for
    need_browser()
    cfg = config("hungariq", "hu", '1 = "protected_mafia", 2 = "mafia", 3 = "mafia", 4 = "inspector"', names=LONG)

    async def main():
        async with launched() as browser:
            async with Table(cfg) as t:
                host = await host_page(browser, t)
                phones, _ = await seated(t, browser, [5])
                await t.to_first_day()
                t.live.submit_event(Nominate(4, by=1))
                await until(lambda: t.live.game.state == "support_vote", what="the support vote")
                await expect(phones[5].locator("#phase-text")).to_have_text(
                    f"Támogatod a vádat? Vádlott: 4 ({LONG[4]})")
                await expect(host.locator("#state")).to_have_text(
                    f"Szavazás a vád támogatásáról – vádlott: 4 ({LONG[4]}) · 1. nap")
                # every living seat is called: ten chips, each its number first, each on one line
                chips = host.locator("#awaiting .voter")
                await expect(chips).to_have_count(10)
                await expect(host.get_by_test_id("awaiting")).to_contain_text("ezeknek a helyeknek a szavazatai:")
                boxes = await chips.evaluate_all("cs => cs.map(c => [c.querySelector('b').innerText, c.title,"
                                                 " Math.round(c.getBoundingClientRect().height), c.scrollWidth > c.clientWidth + 1])")
                assert [b[0] for b in boxes] == [str(s) for s in range(1, 11)]
                assert [b[1] for b in boxes] == [LONG[s] for s in range(1, 11)], "the whole name is the chip's title"
                assert len({b[2] for b in boxes}) == 1, "every chip is one line"
                assert await host.evaluate(WIDE_JS) == []
                rows = await host.locator("#awaiting").evaluate("e => Math.round(e.getBoundingClientRect().height)")
                await shot(host, "hu-host-support-vote")
                assert rows < 200, f"the voters take {rows} px of a 740 px screen"
                await shot(host, "hu-host-support-vote")
                # a tap shows the whole name (no hover on a phone), a second tap cuts it again
                first = chips.nth(2)
                await first.click()
                await expect(first).to_have_class(re.compile(r"\bwhole\b"))
                assert await first.locator("span").evaluate("s => s.scrollWidth <= s.clientWidth + 1")
                await expect(first).to_contain_text(LONG[3])
                await shot(host, "hu-host-support-vote-whole-name")
                await first.click()
                await expect(first).not_to_have_class(re.compile(r"\bwhole\b"))
                # a vote comes in: the chip goes, the rest stay as they were
                await tap(phones[5], "yes")
                await expect(chips).to_have_count(9)
                await host.context.close()
                await phones[5].context.close()

    asyncio.run(main())


# a phone's whole screen but its countdown, which ticks on every phone alike while the step runs:
# the text is read with the clock emptied for that one synchronous moment, and the clock put back
SCREEN_BUT_THE_CLOCK = """() => {
  const clock = document.getElementById("timer"), shown = clock.textContent;
  clock.textContent = "";
  const text = document.body.innerText;
  clock.textContent = shown;
  return text;
}"""


def test_a_removed_players_phone_says_so_when_the_table_learns_it_and_not_before():
    # seed 004 §5-7: a fourth foul or a disqualification removes a player; one who leaves the table
    # is out too. Given by day, the table hears it at once; given at night, in the morning
    need_browser()
    cfg = config("classic", "ru", '1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff"')

    async def press(host, seat: int, act: str) -> None:
        if act in ("disqualify", "leave"):  # asked once more: it cannot be undone
            host.once("dialog", lambda d: asyncio.ensure_future(d.accept()))
        await host.get_by_test_id("seat").fill(str(seat))
        await host.get_by_test_id(act).click()

    async def main():
        async with launched() as browser:
            async with Table(cfg) as t:
                host = await host_page(browser, t)
                phones, _ = await seated(t, browser, [2, 6, 7, 9])
                g, hub = t.live.game, t.companion.hub
                await t.to_first_day()
                # day 1: the host disqualifies 6 and sees 7 leave the table; 2 gets three fouls
                await press(host, 6, "disqualify")
                await until(lambda: 6 not in g.alive, what="the disqualification")
                await expect(phones[6].get_by_test_id("own")).to_have_text("Вы дисквалифицированы и выбыли из игры")
                await press(host, 7, "leave")
                await until(lambda: 7 not in g.alive, what="the leave")
                await expect(phones[7].get_by_test_id("own")).to_have_text("Вы покинули стол и выбыли из игры")
                for _ in range(3):
                    await press(host, 2, "foul")
                await until(lambda: g.seats[2].fouls == 3, what="three fouls")
                await shot(phones[6], "ru-disqualified-day")
                await t.end_speeches(("speeches", "last_words"))
                while g.state != "night":
                    t.live.fire()
                    await t.settle()
                assert g.step.name == "mafia_shoots"
                # the dismissed player's tap at night: a plain answer, at the fixed moment like any
                assert await tap(phones[6], 5) == "Вы дисквалифицированы и выбыли из игры. Ваши нажатия больше не учитываются."
                # the mafia's step: the referee gives 2 his fourth foul. Not a byte to any phone
                before = len(hub.sent)
                screen = await phones[2].evaluate(SCREEN_BUT_THE_CLOCK)
                await press(host, 2, "foul")
                await expect(host.get_by_test_id("held")).to_contain_text("2")
                await t.settle()
                assert hub.sent[before:] == [], "a removal at night reaches no phone"
                assert await phones[2].evaluate(SCREEN_BUT_THE_CLOCK) == screen
                await expect(phones[2].get_by_test_id("own")).to_be_hidden()
                # his tap is answered as a sleeper's, the same words at the same moment
                mine, sleeper = await asyncio.gather(tap(phones[2], 8), tap(phones[9], 8))
                assert mine == sleeper == "Вы выбрали 8 — выбор можно изменить, пока шаг не закончился."
                assert 2 in g.alive
                await t.end_night()
                # the morning says it, and his phone with it
                await expect(phones[2].locator("#caption")).to_contain_text("Этой ночью игрок 2")
                await expect(phones[2].get_by_test_id("own")).to_have_text("Четвёртый фол: вы выбыли из игры")
                await expect(phones[9].get_by_test_id("own")).to_be_hidden()
                await shot(phones[2], "ru-fouled-out-morning")
                for page in (host, *phones.values()):
                    await page.context.close()

    asyncio.run(main())


def test_a_reissued_seat_is_on_the_printed_cards_at_once_and_only_a_page_of_ours_is_rewritten(tmp_path):
    need_browser()
    page_file = tmp_path / "cards" / "seats.html"
    cfg = config("classic", "de", '1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff"',
                 extra=f'seats_page = "{page_file}"\n')

    def cards(text: str) -> list[str]:
        return re.findall(r'<div class="card">.*?</div>', text, re.S)

    async def main():
        async with launched() as browser:
            async with Table(cfg, announce=True) as t:
                hub = t.companion.hub
                host = await host_page(browser, t)
                await t.to_first_day()
                before = cards(page_file.read_text(encoding="utf-8"))
                old_token = hub.seat_tokens[3]
                await host.get_by_test_id("seat").fill("3")
                await host.get_by_test_id("reissue").click()
                await expect(host.locator("#reissued-qr svg")).to_be_visible()
                await expect(host.get_by_test_id("reissued-problem")).to_be_hidden()
                after = cards(page_file.read_text(encoding="utf-8"))
                assert hub.seat_tokens[3] != old_token
                assert after[2] != before[2], "seat 3's card carries its new link"
                assert after[:2] + after[3:] == before[:2] + before[3:], "every other card byte for byte"
                assert oct(page_file.stat().st_mode & 0o777) == "0o600"
                assert not [p for p in page_file.parent.iterdir() if p != page_file], "no temporary file left"
                # the card's link is the seat's: a phone that opens it sits at seat 3
                phone = Phone(t.ws_url, hub.seat_tokens[3])
                await phone.join()
                assert phone.seat == 3
                await phone.close()
                # the page replaced by a link to somebody's file: never written through
                victim = tmp_path / "victim.txt"
                victim.write_text("keep me")
                page_file.unlink()
                page_file.symlink_to(victim)
                await host.get_by_test_id("reissue").click()
                await expect(host.get_by_test_id("reissued-problem")).to_contain_text(
                    f"Die Seite mit den Platzkarten ({page_file}) ließ sich nicht aktualisieren (dort liegt ein Link oder die Datei eines anderen Benutzers, sie bleibt unberührt)")
                await expect(host.locator("#reissued-qr svg")).to_be_visible()  # the new QR code still joins
                assert victim.read_text() == "keep me" and page_file.is_symlink()
                assert await host.evaluate(WIDE_JS) == [], "a long path wraps on a small screen"
                await shot(host, "de-host-reissue-cards-not-written")
                # another user's file in its place: left alone too (root may hand it to nobody)
                if os.getuid() == 0:
                    page_file.unlink()
                    page_file.write_text("nobody's")
                    os.chown(page_file, 65534, 65534)
                    await host.get_by_test_id("reissue").click()
                    await until(lambda: "nobody's" == page_file.read_text(), what="the page left alone")
                    await expect(host.get_by_test_id("reissued-problem")).to_contain_text("ließ sich nicht aktualisieren")
                    assert page_file.read_text() == "nobody's"
                assert t.live.game.state == "speeches", "the game goes on"
                await host.context.close()

    asyncio.run(main())


def test_a_swedish_host_nominates_and_asks_the_extension_for_a_player_without_a_phone():
    # seed 000: «nominerar» naming the nominator; Tid: whoever wants the extension says so when the
    # narrator asks. Sven at seat 10 has no phone: he speaks, the host presses it for him
    need_browser()
    cfg = config("sverige", "sv", '1 = "mafia", 2 = "mafia", 3 = "doctor", 4 = "sheriff"',
                 names={1: "Åsa-Maria Lindqvist-Bergström", 10: "Sven utan telefon"})

    async def main():
        async with launched() as browser:
            async with Table(cfg) as t:
                host = await host_page(browser, t)
                phones, _ = await seated(t, browser, [5])
                g = t.live.game
                await t.to_first_day()
                await host.get_by_test_id("seat").fill("1")
                await host.get_by_test_id("by").fill("10")
                await host.get_by_test_id("nominate").click()
                await until(lambda: g.public_view()["nominations"] == [1], what="the nomination")
                await expect(phones[5].get_by_test_id("day-info")).to_have_text("Nominerade: 1 (Åsa-Maria Lindqvist-Bergström)")
                await expect(host.get_by_test_id("extend")).to_be_hidden()  # nobody is asked yet
                t.live.fire()
                await until(lambda: g.public_view()["timer"] == "extension_offer", what="the question")
                await expect(host.locator("#state")).to_have_text(
                    "Tiden är ute: bordet tillfrågas om någon vill ha tidstillägget (dag 1)")
                await expect(phones[5].locator("#phase-text")).to_have_text(
                    "Dag: säg ”tidstillägg” eller tryck på knappen.")
                # the question itself once, in the narrator's words under the heading
                await expect(phones[5].locator("#caption")).to_have_text("Tiden är ute. Vill någon använda tidstillägget?")
                await expect(host.get_by_test_id("extend")).to_have_text("En spelare begär tidstillägget")
                await expect(host.get_by_test_id("awaiting")).to_have_text(
                    "att tiden går ut, eller att en spelare begär tidstillägget")
                await shot(host, "sv-host-extension-offer")
                await host.get_by_test_id("extend").click()
                await until(lambda: g.public_view()["timer"] == "extension", what="the extension")
                assert t.recorded("extension", "day") == [(1,)]
                await expect(phones[5].locator("#phase-text")).to_have_text("Dag: diskussion (tidstillägg)")
                await expect(host.get_by_test_id("extend")).to_be_hidden()
                # the phone's button for the question is gone with it: a late tap asks nothing twice
                await expect(phones[5].locator("#grid button")).to_have_count(0)
                await host.context.close()
                await phones[5].context.close()

    asyncio.run(main())
