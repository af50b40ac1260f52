"""Long names, the phones row and a vote raced by a phone and the host, in Chromium as the host and
the players see them: the host screen at a small phone's 360×740 and a tablet's 800×1280.

- A name is never broken inside a word (headless Chromium hyphenates no Russian:
  «Константинопольс / кий» read as two words): the seat boxes, the phones row, the "connected, no
  vote yet" chips, the ballot buttons, a phone's own header and the printable seat cards wrap
  between words, shrink a word a little, or cut it with "…" — and the whole name stays reachable
  (the seat's title; a tap on a host seat box shows it across the row).
- The host's "Phones" row is a line of seat chips, the phones not connected first and marked.
- The opened "Phones connected, no vote yet" list is a grid of chips, not a ballot a row: at
  360×740 it leaves the game on screen; a tap on a chip opens that seat's ballot alone.
- The marks over a capital and the tails under a line are never cut off a small name: the host's
  seat boxes cut «Örjan» to «Orjan» and «Йоги Ёлкин» to «Иоги Елкин» (a box that cuts a long
  name's end cut above its line too, the line being shorter than the letters). Every name shown
  small — the night's seat buttons, the day's table, a phone's own header, the host's seats, the
  voters waited for and the connected phones' chips, on 390×844 phones and a 1280×800 laptop, the
  printed seat cards — has each letter's ink inside every box that cuts it.
- seed 004 §4.6 (one vote a player): the phone and the host press seat 4's vote in the same instant;
  the phone reads the vote the game recorded ("You voted for player 5." above the table, "The host
  recorded your vote: 5" under it when the host's press came first)
  with that button marked.
"""

from __future__ import annotations

import asyncio
import re
import os
from pathlib import Path

from chromium import PHONE, expect, launched, need_browser
from narrator.companion.testing import CLASSIC_DEAL, Phone, Table, until
from narrator.config import parse_config
from seat_pages import SMALL, seated
from test_companion_pause_and_host import to_the_vote

SHOTS = Path(os.environ["NARRATOR_SHOTS"]) if os.environ.get("NARRATOR_SHOTS") else None
TABLET = {"width": 800, "height": 1280}
NAMES = {
    1: "Константинопольский",
    2: "Szőke-Kovácsné Erzsébet",
    3: "Åsa-Maria Lindqvist-Bergström",
    4: "Александр Константинопольский-Задунай",
    5: "Wolfeschlegelsteinhausenbergerdorffvoral",  # wider than any seat box
    10: "Константинопольская",
}
PLAYERS = "[players]\n" + "".join(f"{s} = '{n}'\n" for s, n in NAMES.items())

# every word box on the page: whole, or cut with "…" inside an element whose title is the whole name
WORDS_JS = """() => Array.from(document.querySelectorAll(".w")).filter(w => w.getBoundingClientRect().width).map(w => {
  const titled = w.closest("[title]");
  return {text: w.textContent, cut: w.scrollWidth > w.clientWidth + 1, lines: w.getClientRects().length,
          ellipsis: getComputedStyle(w).textOverflow === "ellipsis", title: titled ? titled.title : ""};
})"""
# text spilling out of its own box (a word broken inside is not spilling; a spilled one is cut unseen)
SPILL_JS = """(sel) => Array.from(document.querySelectorAll(sel)).filter(e => e.getBoundingClientRect().width &&
  (e.scrollWidth > e.clientWidth + 1) && getComputedStyle(e).overflowX === "visible").map(e => e.outerHTML.slice(0, 80))"""


# each small name's letters, inked, against every box that cuts what overflows it (the name's own
# box, its word's, its seat's): the letters' top and bottom as the font draws them (a canvas
# measures the ink at 20 times the size, the screen's pixels round it), from the baseline the line
# really has (a zero-sized box placed on it)
INK_JS = """(sel) => {
  const out = [], ctx = document.createElement("canvas").getContext("2d");
  for (const e of document.querySelectorAll(sel)) {
    const box = e.getBoundingClientRect();
    if (!box.width || e.children.length || !e.textContent.trim()) continue;
    const cs = getComputedStyle(e);
    ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${parseFloat(cs.fontSize) * 20}px ${cs.fontFamily}`;
    const m = ctx.measureText(e.textContent);
    const probe = document.createElement("span");
    probe.style.cssText = "display:inline-block;width:0;height:0;vertical-align:baseline";
    e.appendChild(probe);
    const base = probe.getBoundingClientRect().bottom;
    probe.remove();
    const top = base - m.actualBoundingBoxAscent / 20, bottom = base + m.actualBoundingBoxDescent / 20;
    for (let c = e; c && c !== document.documentElement; c = c.parentElement) {
      const s = getComputedStyle(c);
      if (s.overflowX === "visible" && s.overflowY === "visible") continue;
      const r = c.getBoundingClientRect();
      const from = r.top + parseFloat(s.borderTopWidth), to = r.bottom - parseFloat(s.borderBottomWidth);
      if (c !== e && box.top >= to) break;  // a line past the third, left out on purpose (its "…" says so)
      out.push({text: e.textContent, box: c.tagName + "." + c.className,
                above: +(top - from).toFixed(2), below: +(to - bottom).toFixed(2)});
    }
  }
  return out;
}"""
INK_NAMES = {1: "Örjan", 2: "Őrs Ügyész", 3: "Ёжик", 4: "Jürgen Großjohann", 5: "Åsa Ägg", 6: "Ű Ő Á É",
             7: "Йоги Ёлкин", 8: "Märta", 9: "Gyöngy Pápay", 10: "Ülkü Wolfeschlegelsteinhausenberger"}
LAPTOP = {"width": 1280, "height": 800}


async def check_ink(page, sel: str, where: str, names: int) -> None:
    found = await page.evaluate(INK_JS, sel)
    assert len({f["text"] for f in found}) >= names, (where, found)  # the names were there to measure
    cut = [f for f in found if f["above"] < 0 or f["below"] < 0]
    assert cut == [], (where, cut)


def check_words(found: list[dict], where: str) -> None:
    for w in found:
        assert w["lines"] == 1, (where, w)  # one box: never broken inside the word
        if w["cut"]:
            # cut with a sign, and the whole name a tap or a hover away
            assert w["ellipsis"] and w["text"] in w["title"], (where, w)


async def shot(page, name: str) -> None:
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(SHOTS / f"long-names-{name}.png"), full_page=True)


def test_long_names_stay_readable_and_the_host_sees_who_is_missing_at_a_glance():
    need_browser()

    async def main():
        # both nominees on the ballot at once (vote_call = "together"): every name under its number
        cfg = parse_config(CLASSIC_DEAL + PLAYERS + '[rules]\nvote_call = "together"\n[companion]\nvotes = true\n')
        async with launched() as browser, Table(cfg) as t:
            hub = t.companion.hub
            # seat 10's phone is not connected: protocol phones for 2-9, Chromium for seat 1 and 4
            pages, others = await seated(t, browser, (1, 4))
            await others[10].close()
            await until(lambda: 10 not in hub.phones or hub.phones[10].closed, what="seat 10 gone")
            base = f"http://127.0.0.1:{t.companion.port}"
            hosts = {}
            for name, size in (("small", SMALL), ("tablet", TABLET)):
                hosts[name] = await (await browser.new_context(viewport=size)).new_page()
                await hosts[name].goto(t.host_link)
                await expect(hosts[name].get_by_test_id("state")).not_to_be_empty()
            await to_the_vote(t)
            for name, host in hosts.items():
                await expect(host.get_by_test_id("proxy-connected")).to_be_visible()
                check_words(await host.evaluate(WORDS_JS), f"host {name}")
                assert await host.evaluate(SPILL_JS, ".seat, .chip, .proxy-row button") == []
                # nothing pushes the page past the screen's edge (a forty-letter name among the nominees did)
                assert await host.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")
                # Константинопольский is whole in his box on the tablet (shrunk a little if needed)
                if name == "tablet":
                    first = await host.evaluate("() => { const w = document.querySelector('.seat[data-seat=\"1\"] .w'); return w.scrollWidth <= w.clientWidth + 1; }")
                    assert first
                # the phones row: seat 10 not connected comes first, marked; then the connected ones
                chips = host.locator("#phones .chip")
                await expect(chips.first).to_have_attribute("data-seat", "10")
                await expect(chips.first).to_have_class("chip missing")
                assert await host.locator("#phones .chip.missing").count() == 1
                await expect(host.get_by_test_id("phones-on")).to_have_text("✓ 9/10")
                await shot(host, f"vote-{name}")
            host = hosts["small"]
            # a tap on seat 5's box shows his whole name across the row
            box = host.locator('.seat[data-seat="5"]')
            await box.click()
            await expect(box).to_have_class(re.compile(r"\bwhole\b"))
            assert not await host.evaluate("() => { const w = document.querySelector('.seat[data-seat=\"5\"] .w'); return w.scrollWidth > w.clientWidth + 1; }")
            await box.click()
            # the connected phones that have not voted, opened: a grid of chips, the game still on screen
            await host.get_by_test_id("proxy-connected").click()
            proxy = await host.get_by_test_id("proxy").bounding_box()
            assert proxy["height"] < 260, proxy
            assert await host.locator("#proxy .proxy-row").count() == 1  # seat 10's own, no phone
            chip = host.get_by_test_id("proxy-chip-3")
            await chip.click()
            await expect(host.get_by_test_id("proxy-3")).to_be_visible()
            assert await host.locator("#proxy .proxy-row").count() == 2
            check_words(await host.evaluate(WORDS_JS), "host, a ballot opened")
            await shot(host, "connected-opened")
            await chip.click()
            await expect(host.get_by_test_id("proxy-3")).to_have_count(0)
            # a phone's own header: the name's words whole, the too long one cut with "…"
            for s, page in pages.items():
                check_words(await page.evaluate(WORDS_JS), f"seat {s}'s phone")
                assert await page.evaluate(SPILL_JS, "h1, #name, #grid button, #table span, #day-info, #caption, #phase-text") == []
                assert await page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")
                await shot(page, f"phone-{s}")
            # on a phone a tap on a seat of the table shows its player's whole name
            page = pages[1]
            seat5 = page.locator('#table span[data-seat="5"]')
            await seat5.click()
            assert not await page.evaluate("() => { const s = document.querySelector('#table span[data-seat=\"5\"] small'); return s.scrollWidth > s.clientWidth + 1; }")
            await shot(page, "phone-whole-name")
            await seat5.click()
            # the printable seat cards on a phone's screen
            cards = await (await browser.new_context(viewport=SMALL)).new_page()
            from narrator.companion.qr import seats_page
            await cards.set_content(seats_page({s: f"http://x/#{s}" for s in range(1, 11)}, cfg.players, hub.word, "en"))
            found = await cards.evaluate(WORDS_JS)
            check_words(found, "seat cards")
            # a card is read on paper: a long word whole, smaller if need be (below a readable size, cut)
            assert not any(w["cut"] for w in found if len(w["text"]) <= 20), found
            assert await cards.evaluate(SPILL_JS, ".card, .name") == []
            await shot(cards, "cards")

            # seat 4: his phone and the host (who thought it froze) press in the same instant
            host.on("dialog", lambda d: asyncio.ensure_future(d.accept()))
            await host.get_by_test_id("proxy-chip-4").click()
            phone = pages[4]
            acks = int(await phone.evaluate("() => document.body.dataset.acks || 0"))
            await expect(host.locator('[data-testid="proxy-4"] button[data-choice="5"]')).to_be_visible()
            # both at once: the page that loses the race must not wait for a button that went
            await asyncio.gather(host.evaluate("() => document.querySelector('[data-testid=\"proxy-4\"] button[data-choice=\"5\"]').click()"),
                                 phone.evaluate("() => document.querySelector('#grid button[data-choice=\"6\"]').click()"))
            await phone.wait_for_function(f"() => Number(document.body.dataset.acks || 0) > {acks}", timeout=10_000)
            await t.settle()
            counted = t.live.game.votes[4]
            label = hub.seat_label(counted)
            # his own vote counted: said once, above the table; the host's: his tap's answer says why
            words = "" if counted == 6 else f"The host recorded your vote: {label}"
            await expect(phone.get_by_test_id("result")).to_have_text(words)
            mine = f"You voted for player {label}." + ("" if counted == 6 else " The host recorded it for you.")
            await expect(phone.get_by_test_id("own")).to_have_text(mine)
            assert await phone.evaluate("() => Array.from(document.querySelectorAll('#grid button.chosen')).map(b => b.dataset.choice)") == [str(counted)]
            await shot(phone, "raced")
            for page in [*pages.values(), *hosts.values(), cards]:
                await page.context.close()

    asyncio.run(main())


def test_the_marks_over_a_capital_and_the_tails_under_a_small_name_are_never_cut_off():
    """Örjan, Őrs Ügyész, Ёжик, Йоги Ёлкин, Jürgen Großjohann, Gyöngy Pápay: every small name
    whole from its marks to its descenders, a long one still cut at its end with "…" (seed 000
    table, phones at 390×844 and 2 device pixels a pixel, the host also on a laptop)."""
    need_browser()

    async def main():
        players = "[players]\n" + "".join(f"{s} = '{n}'\n" for s, n in INK_NAMES.items())
        cfg = parse_config('variant = "sverige"\nlanguage = "sv"\nseats = 10\n'
                           '[dealing]\nroles = { 1 = "mafia", 2 = "mafia", 3 = "doctor", 4 = "sheriff" }\n'
                           "[companion]\nvotes = true\n" + players)
        async with launched() as browser, Table(cfg) as t:
            hub = t.companion.hub
            base = f"http://127.0.0.1:{t.companion.port}"
            phones = {}
            for s in (1, 7):
                phones[s] = await (await browser.new_context(viewport=PHONE, device_scale_factor=2)).new_page()
                await phones[s].goto(f"{base}/#{hub.seat_tokens[s]}")
                await expect(phones[s].locator("#seat")).to_have_text(hub.word("seat", seat=s))
            t.phones = {s: Phone(t.ws_url, hub.seat_tokens[s]) for s in range(1, 11) if s not in phones}
            await asyncio.gather(*(p.join() for p in t.phones.values()))
            hosts = {}
            for name, size in (("phone", PHONE), ("laptop", LAPTOP)):
                hosts[name] = await (await browser.new_context(viewport=size, device_scale_factor=2)).new_page()
                await hosts[name].goto(t.host_link)
                await expect(hosts[name].get_by_test_id("state")).not_to_be_empty()

            async def everywhere(moment: str, phone_names: str, phone_count: int) -> None:
                for s, page in phones.items():
                    await check_ink(page, phone_names, f"seat {s}'s phone, {moment}", phone_count)
                    await check_ink(page, "#name .w", f"seat {s}'s header", 1)
                    await shot(page, f"ink-{moment}-phone-{s}")
                for name, host in hosts.items():
                    await check_ink(host, "#seats .w", f"host {name}, {moment}", 10)
                    await shot(host, f"ink-{moment}-host-{name}")

            t.deal()
            await until(lambda: t.live.game.state == "night", what="the night")
            for page in phones.values():
                await expect(page.locator("#grid button")).to_have_count(10)
            await everywhere("night", "#grid small", 10)
            # a long name is still cut at its end, with "…", its whole name the button's title
            assert await phones[1].evaluate("""() => { const e = document.querySelector('#grid button[data-choice="10"] small');
                return e.scrollWidth > e.clientWidth && getComputedStyle(e).textOverflow === 'ellipsis'; }""")
            await t.end_night()
            await t.to_hand_vote((1, 3), (8, 5))
            await until(lambda: t.live.game.state == "hand_vote", what="the hand vote")
            for page in phones.values():
                await expect(page.locator("#table span")).to_have_count(10)
            await everywhere("vote", "#table small", 10)
            for name, host in hosts.items():
                # the voters waited for, and the connected phones' chips opened
                await expect(host.locator(".voter")).to_have_count(10)
                await check_ink(host, ".voter span", f"host {name}, the voters", 9)
                await host.get_by_test_id("proxy-connected").click()
                await expect(host.locator("#proxy .chip")).to_have_count(10)
                await check_ink(host, "#proxy .chip span", f"host {name}, the connected phones", 9)
                await shot(host, f"ink-voters-host-{name}")
            # the printed seat cards, on a phone's screen
            from narrator.companion.qr import seats_page
            cards = await (await browser.new_context(viewport=PHONE, device_scale_factor=2)).new_page()
            await cards.set_content(seats_page({s: f"http://x/#{s}" for s in range(1, 11)}, cfg.players, hub.word, "sv"))
            await check_ink(cards, ".name .w", "seat cards", 10)
            await shot(cards, "ink-cards")
            for page in [*phones.values(), *hosts.values(), cards]:
                await page.context.close()

    asyncio.run(main())
