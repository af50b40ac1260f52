"""The report as one self-contained HTML page: inline CSS and SVG, no script, no network.

Every text from people (players' names) and every word of the voice file is escaped; the page
is built from escaped fragments only."""

from __future__ import annotations

import html
import time
import tomllib
from functools import cache

from ..language import load_voice
from ..rules.variants import VARIANTS
from .reader import GameRecord
from .story import Period, Story, build


@cache
def report_words(lang: str) -> dict[str, str]:
    """The [report] table of a language (English for any key a language lacks)."""
    def table(code: str) -> dict[str, str]:
        with load_voice(code).source.open("rb") as fh:
            return tomllib.load(fh).get("report", {})
    return {**table("en"), **table(lang)} if lang != "en" else table("en")


def esc(text) -> str:
    return html.escape(str(text), quote=True)


class Page:
    def __init__(self, record: GameRecord, story: Story, ratings: dict | None = None):
        self.rec = record
        self.story = story
        self.words = report_words(record.language)
        # seat -> its rating's change in the club's record (club.Change); None: not rated here
        self.ratings = ratings

    # ------------------------------------------------------------------ words and chips
    def w(self, key: str, **args) -> str:
        """A word of the table's language as HTML; args are HTML fragments already."""
        template = self.words.get(key)
        if template is None:  # a value of a foreign protocol: shown as it is, never used as a template
            return esc(key)
        return esc(template).format(**args)

    def role(self, role: str | None) -> str:
        return self.w("role_" + str(role)) if ("role_" + str(role)) in self.words else esc(role or "?")

    def winner(self, winner: str | None) -> str:
        """The side that won, in the words that variant's narrator announced it with (seed 003's
        grundregeln: «Die böse Seite gewinnt», never the [report]'s generic «Die Mafia gewinnt»).
        The variant is the one the protocol's game_start names; the page is a heading, so the
        narrator's closing full stop is left off."""
        if winner is None:
            return self.w("winner_none")
        try:
            named = load_voice(self.rec.language, self.story.variant).winner(winner)
        except (OSError, ValueError):  # a protocol of a language this narrator has no voice for
            named = ""
        return esc(named.rstrip(".") or winner)

    def chip(self, seat) -> str:
        if seat is None:
            return '<span class="p">—</span>'
        team = self.story.team(seat)
        name = self.rec.players.get(seat)
        label = f'<b>{esc(seat)}</b>' + (f' {esc(name)}' if name else "")
        # a long name is cut short with an ellipsis in the chip: the whole of it is in the hint
        hint = (f'{esc(name)} — ' if name else "") + self.role(self.story.roles.get(seat))
        return f'<span class="p {team}" title="{hint}">{label}</span>'

    def chips(self, seats) -> str:
        return " ".join(self.chip(s) for s in seats)

    # ------------------------------------------------------------------ the page
    def render(self) -> str:
        s = self.story
        lang = esc(self.rec.language)
        parts = [self.header(), self.deal(), self.rating(), f'<h2>{self.w("timeline")}</h2>']
        # an unfinished game's last period is drawn even while empty (a night just fallen): it is
        # where the game stands
        last = s.periods[-1] if s.periods and not self.rec.finished else None
        parts += [self.period(p) for p in s.periods if p.items or p.kind == "day" or p is last]
        parts.append(f'<footer>{self.w("footer")}</footer>')
        title = f'{self.w("title")} — {self.w("variant_" + s.variant)}'
        return (
            f'<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">"
            f"<title>{title}</title><style>{CSS}</style></head><body><main>\n"
            + "\n".join(parts)
            + "\n</main></body></html>\n"
        )

    def header(self) -> str:
        s = self.story
        bits = [self.w("variant_" + s.variant), self.w("players", n=esc(s.seats))]
        if s.days:
            bits.append(self.w("days", n=esc(s.days)))
        if self.rec.started:
            bits.append(esc(time.strftime("%Y-%m-%d %H:%M", time.localtime(self.rec.started))))
        winner = s.winner or "none"
        banner = f'<div class="winner {esc(winner)}">{self.winner(s.winner)}</div>'
        sofar = f'<p class="sofar">{self.w("so_far")}</p>' if not self.rec.finished else ""
        return f'<header><h1>{self.w("title")}</h1><p class="meta">{" · ".join(bits)}</p>{banner}{sofar}</header>'

    def deal(self) -> str:
        s = self.story
        rows = []
        for seat in range(1, s.seats + 1):
            role = s.roles.get(seat, "citizen")
            team = s.team(seat)
            out = s.eliminated.get(seat)
            if out:
                kind, n = out["period"]
                when = self.period_name(kind, n, within=True)
                fate = self.w("out_in", cause=self.w("cause_" + str(out["cause"])), when=when)
            else:  # an unfinished game has no end yet to be alive at
                fate = self.w("survived" if self.rec.finished else "still_in")
            flags = []
            extra = s.extras.get(seat)
            if extra == "lover":
                flags.append(self.w("lover"))
            elif extra == "kamikaze":
                flags.append(self.w("kamikaze_flag"))
            if s.fouls.get(seat):
                flags.append(self.w("fouls", n=esc(s.fouls[seat])))
            name = self.rec.players.get(seat)
            rows.append(
                f'<li class="{team}{" gone" if out else ""}"><span class="num">{seat}</span>'
                f'<span class="who">{esc(name) if name else ""}<em>{self.role(role)}</em></span>'
                f'<span class="fate">{fate}{"".join(f"<i>{f}</i>" for f in flags)}</span></li>'
            )
        return f'<section class="deal"><h2>{self.w("deal")}</h2><ol>{"".join(rows)}</ol></section>'

    def rating(self) -> str:
        """Each seat's rating before and after this game, as the club's record counts it."""
        if not self.ratings:
            return ""
        rows = []
        for seat in range(1, self.story.seats + 1):
            change = self.ratings.get(seat)
            if change is None:
                continue
            (mu0, s0), (mu1, s1) = change.before, change.after
            delta = mu1 - mu0
            guest = getattr(change, "guest", False)
            after = self.w("rating_guest") if guest else f"{mu1:.1f} <i>±{s1:.1f}</i>"
            rows.append(
                f'<tr class="{self.story.team(seat)}"><td>{self.chip(seat)}</td><td>{mu0:.1f} <i>±{s0:.1f}</i></td>'
                f'<td>{after}</td><td class="{"up" if delta > 0 else "down" if delta < 0 else ""}">{delta:+.2f}</td></tr>')
        head = (f'<th>{self.w("name")}</th><th>{self.w("rating_before")}</th><th>{self.w("rating_after")}</th>'
                f'<th>{self.w("rating_change")}</th>')
        return (f'<section class="rating"><h2>{self.w("rating")}</h2><table><thead><tr>{head}</tr></thead>'
                f'<tbody>{"".join(rows)}</tbody></table><p class="note">{self.w("rating_note")}</p></section>')

    def starts_with_a_killing_night(self) -> bool:
        """The rule system has no night zero: its game starts with a night the mafia kill in
        (grundregeln, seed 003: «Das Spiel beginnt mit einer Nacht»). The protocol counts that
        night 0 all the same."""
        variant = VARIANTS.get(self.story.variant)
        return variant is not None and not variant.night_zero

    def period_name(self, kind: str, n: int, within: bool = False) -> str:
        """A night's or day's name: a heading ("Day 2"), or `within` a sentence ("voted out, day 2")."""
        pre = "when_" if within else ""
        if kind == "night":
            if self.starts_with_a_killing_night():
                return self.w(pre + "night", n=esc(n + 1))  # the first night, before day 1: no "night zero" there
            return self.w(pre + "night_zero") if n == 0 else self.w(pre + "night", n=esc(n))
        return self.w(pre + "day", n=esc(n))

    def period(self, p: Period) -> str:
        body = self.night(p) if p.kind == "night" else self.day(p)
        if not body and p is self.story.periods[-1] and self.rec.finished:
            body = f'<p class="note">{self.w("game_over")}</p>'  # the game ended with the morning's news
        if p is self.story.periods[-1] and not self.rec.finished:
            # a journal read while its game is stopped (a crash, a pause): the timeline ends where
            # the table is, after its last row, and says so rather than end on a speech or a vote
            # that looks complete
            body += f'<p class="note stopped">{self.w("stopped_here")}</p>'
        return (f'<section class="period {p.kind}" id="{p.kind}-{p.number}"><h3>{self.period_name(p.kind, p.number)}</h3>'
                f'{body}</section>')

    # ------------------------------------------------------------------ nights
    def night(self, p: Period) -> str:
        out = []
        deaths = 0
        undrawn = {id(i): i for i in p.items if i["kind"] == "shot"}
        for item in p.items:
            k = item["kind"]
            if k == "shot_fired":
                # the protocol resolves a shot at dawn, after the night's checks; it is drawn where its
                # first aim was taken, so the night reads in the order of its steps (the shot, then
                # the Don, then the Sheriff)
                shot = next((s for s in undrawn.values() if item["by"] in s["shooters"]), None)
                if shot is not None:
                    del undrawn[id(shot)]
                    out.append(self.shot(shot))
            elif k == "shot":
                if undrawn.pop(id(item), None) is not None:  # nobody aimed: drawn at dawn, where it was resolved
                    out.append(self.shot(item))
            elif k == "eliminated":
                deaths += 1
                out.append(self.eliminated(item))
            else:
                out.append(self.event(item))
        dead = {i["seat"] for i in p.items if i["kind"] == "eliminated"}
        for i in p.items:
            if i["kind"] == "shot" and i["seat"] is not None and i["seat"] not in dead:
                out.append(f'<p class="note">{self.w("shot_survived", seat=self.chip(i["seat"]))}</p>')
        killing = p.number > 0 or self.starts_with_a_killing_night()
        if killing and not deaths and any(i["kind"] == "shot" for i in p.items):
            out.append(f'<p class="quiet">{self.w("quiet_night")}</p>')
        return "".join(out)

    def shot(self, item: dict) -> str:
        roles = {self.story.roles.get(s) for s in item["shooters"]}
        solo = len(item["shooters"]) == 1 and not (roles & {"don", "mafia", "protected_mafia", "kamikaze_mafia"})
        title = self.w("shot_by", seat=self.chip(next(iter(item["shooters"])))) if solo else self.w("shot_by_mafia")
        aims = []
        for by, targets in item["shooters"].items():
            if targets:
                aims.append(self.w("shot_aimed", by=self.chip(by), seat=" ".join(self.chip(t) for t in targets)))
            else:
                aims.append(self.w("shot_no_choice", by=self.chip(by)))
        result = (self.w("shot_hit", seat=self.chip(item["seat"])) if item["seat"] is not None else self.w("shot_missed"))
        extra = f' <span class="note">{self.w("saved_by_sarika")}</span>' if item.get("saved_by_sarika") else ""
        cls = "hit" if item["seat"] is not None else "miss"
        return (f'<div class="shot {cls}"><h4>{title}</h4><ul>{"".join(f"<li>{a}</li>" for a in aims)}</ul>'
                f'<p class="res">{result}{extra}</p></div>')

    # ------------------------------------------------------------------ days
    def day(self, p: Period) -> str:
        out = []
        speeches: list[dict] = []

        def flush() -> None:
            if speeches:
                out.append(self.speech_list(list(speeches)))
                speeches.clear()

        for item in p.items:
            k = item["kind"]
            if k == "speech":
                speeches.append(item)
                continue
            if k in ("nomination", "revocation", "foul") and speeches:
                speeches[-1].setdefault("events", []).append(item)
                continue
            flush()
            out.append(self.vote(item) if k == "vote" else self.eliminated(item) if k == "eliminated" else self.event(item))
        flush()
        if (any(i["kind"] == "accusations" for i in p.items) and not any(i["kind"] == "accusation" for i in p.items)
                and p is not self.story.periods[-1]):
            # a hungariq day whose time ran out with nobody accused: said, not an empty day
            out.append(f'<p class="note">{self.w("no_accusations")}</p>')
        return "".join(out)

    def speech_list(self, items: list[dict]) -> str:
        allowed = max([i.get("allowed") or 0 for i in items] + [i.get("seconds") or 0 for i in items] + [1])
        rows = []
        for i in items:
            secs = i.get("seconds")
            if secs is not None:
                length = f"{secs // 60}:{secs % 60:02d}"
                width = min(100, 100 * secs / allowed)
            elif i.get("timed_out") and i.get("allowed"):
                length = f'{i["allowed"] // 60}:{i["allowed"] % 60:02d}'
                width = min(100, 100 * i["allowed"] / allowed)
            else:
                length, width = "", 0
            state = (self.w("speech_time_ran_out") if i.get("timed_out")
                     else self.w("speech_ended_by_host") if i.get("ended_by_host") else "")
            bar = (f'<svg class="len" viewBox="0 0 100 6" preserveAspectRatio="none" aria-hidden="true">'
                   f'<rect width="100" height="6" class="bg"/><rect width="{width:.1f}" height="6" class="fg"/></svg>') if width else ""
            notes = []
            for ev in i.get("events", []):
                if ev["kind"] == "nomination":
                    notes.append(f'<span class="nom">→ {self.chip(ev["seat"])}</span>')
                elif ev["kind"] == "revocation":
                    notes.append(f'<span class="rev">{self.w("revocation", by=self.chip(ev["by"]), seat=self.chip(ev["seat"]))}</span>')
                elif ev["kind"] == "foul":
                    notes.append(f'<span class="foul">{self.w("foul", seat=self.chip(ev["seat"]), n=esc(ev["count"]))}</span>')
            kind = self.w("speech_" + str(i["speech"])) if ("speech_" + str(i["speech"])) in self.words else esc(i["speech"])
            rows.append(
                f'<li class="sp-{esc(i["speech"])}"><div class="sp">{self.chip(i["seat"])} <span class="kind">{kind}</span>'
                f'<span class="t">{esc(length)} {state}</span></div>{bar}'
                + (f'<div class="notes">{" ".join(notes)}</div>' if notes else "") + "</li>"
            )
        return f'<ol class="speeches">{"".join(rows)}</ol>'

    def vote(self, v: dict) -> str:
        rnd = str(v["round"])
        subject = v.get("seat")
        title = self.w("round_" + rnd, seat=self.chip(subject)) if ("round_" + rnd) in self.words else esc(rnd)
        if "yes" in v and v.get("counts") is None:
            return self.yes_no(v, title)
        counts = v.get("counts")
        if counts is None:  # the vote never closed (an unfinished game)
            counts = {}
            for _, c in v["votes"]:
                counts[c] = counts.get(c, 0) + 1
        by: dict = {}
        for voter, c in v["votes"]:
            by.setdefault(c, []).append(voter)
        cands = v["candidates"] or list(counts)
        total = max([counts.get(c, 0) for c in cands] + [1])
        top = max([counts.get(c, 0) for c in cands] + [0])
        rows = []
        for c in cands:
            n = counts.get(c, 0)
            pct = 100 * n / total
            voters = self.w("voters", seats=self.chips(by.get(c, []))) if by.get(c) else ""
            rows.append(
                f'<div class="row{" top" if n == top and n else ""}"><div class="cand">{self.chip(c)}</div>'
                f'<svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" role="img" aria-label="{n}">'
                f'<rect width="100" height="10" class="bg"/><rect width="{pct:.1f}" height="10" class="fg"/></svg>'
                f'<div class="n">{n}</div><div class="vs">{voters}</div></div>'
            )
        silent = v.get("added_to_last") or []
        note = f'<p class="note">{self.w("silent_added", seats=self.chips(silent))}</p>' if silent else ""
        return f'<div class="vote"><h4>{title}</h4>{"".join(rows)}{note}</div>'

    def yes_no(self, v: dict, title: str) -> str:
        yes, electorate = int(v.get("yes") or 0), int(v.get("electorate") or 0) or 1
        ayes = [voter for voter, a in v["votes"] if a == "yes"]
        noes = [voter for voter, a in v["votes"] if a == "no"]
        passed = v.get("passed")
        pct = 100 * yes / electorate
        verdict = self.w("passed") if passed else self.w("not_passed")
        return (
            f'<div class="vote yn"><h4>{title}</h4>'
            f'<svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" role="img" aria-label="{yes}/{electorate}">'
            f'<rect width="100" height="10" class="bg"/><rect width="{pct:.1f}" height="10" class="fg"/>'
            f'<rect x="50" width="0.6" height="10" class="half"/></svg>'
            f'<p>{self.w("yes_of", yes=esc(yes), electorate=esc(electorate))} — <b class="{"ok" if passed else "ko"}">{verdict}</b></p>'
            + (f'<p class="vs">{self.w("yes")}: {self.chips(ayes)}</p>' if ayes else "")
            + (f'<p class="vs">{self.w("no")}: {self.chips(noes)}</p>' if noes else "")
            + "</div>"
        )

    def eliminated(self, item: dict) -> str:
        cause = self.w("cause_" + str(item["cause"])) if ("cause_" + str(item["cause"])) in self.words else esc(item["cause"])
        role = self.role(self.story.roles.get(item["seat"]))
        return f'<p class="out">✝ {self.w("eliminated", seat=self.chip(item["seat"]), cause=cause)} <span class="role">({role})</span></p>'

    def event(self, item: dict) -> str:
        k = item["kind"]
        c = self.chip
        if k == "check":
            res = str(item.get("result"))
            answer = self.w("result_" + res) if ("result_" + res) in self.words else esc(res)
            cls = "mafia" if res == "mafia" or res == "sheriff" else "town"
            return f'<p class="check">{self.w("check", by=c(item["by"]), seat=c(item["seat"]))}: <b class="{cls}">{answer}</b></p>'
        if k == "manner":
            voice = load_voice(self.rec.language)
            line = f"manner_{item.get('manner')}"
            manner = esc(voice.render(line)) if line in voice.lines else esc(item.get("manner"))
            return f'<p class="act">{self.w("manner", by=c(item["by"]), manner=manner)}</p>'
        if k == "watch":
            return f'<p class="act">{self.w("watch", by=c(item["by"]), seat=c(item["seat"]))}: {self.w("watch_yes" if item.get("result") else "watch_no")}</p>'
        if k in ("accusation", "nomination") and item.get("by") is None:
            return f'<p class="act {k}">{self.w(k + "_anonymous", seat=c(item["seat"]))}</p>'
        if k in ("protect", "block", "kamikaze", "tie_break", "accusation", "nomination", "revocation"):
            return f'<p class="act {k}">{self.w(k, by=c(item["by"]), seat=c(item["seat"]))}</p>'
        if k == "foul":
            return f'<p class="foul">{self.w("foul", seat=c(item["seat"]), n=esc(item["count"]))}</p>'
        if k == "split":
            return f'<p class="split">{self.w("split", seats=self.chips(item["seats"]))}</p>'
        if k == "nominees":
            if not item["seats"]:  # nobody nominated when the nominations closed (sverige): no vote, nobody hanged
                return f'<p class="note">{self.w("vote_cancelled_no_nominations")}</p>'
            return f'<p class="act">{self.w("nominees", seats=self.chips(item["seats"]))}</p>'
        if k == "vote_ends":
            return f'<p class="note">{self.w("vote_ends_" + str(item["reason"]))}</p>'
        if k == "vote_cancelled":
            return f'<p class="note">{self.w("vote_cancelled_" + str(item["reason"]))}</p>'
        if k == "vote_cancel_pending":
            reason = str(item.get("reason") or "fouls")
            key = ("vote_cancel_today_" if item.get("today") else "vote_cancel_next_") + reason
            return f'<p class="note">{self.w(key, day=esc(item.get("day")))}</p>'
        if k == "defeat":
            return f'<p class="foul">{self.w("defeat", seat=c(item["seat"]))}</p>'
        if k == "leaving" and self.story.variant == "classic":
            # seed 004 §5: leaving the gaming table is a dismissal; the table heard "leaves the
            # table", and nobody said why — seed 000's unwell player is another rule's
            return f'<p class="act">{self.w("leaving_table", seat=c(item["seat"]))}</p>'
        if k in ("pardon", "leaving", "disqualification"):
            return f'<p class="act">{self.w(k, seat=c(item["seat"]))}</p>'
        if k == "card_shown":
            return f'<p class="act">{self.w("card_shown", seat=c(item["seat"]), role=self.role(item.get("role")))}</p>'
        if k == "extension":
            return f'<p class="note">{self.w("extension")}</p>'
        if k == "no_night":
            return f'<p class="note">{self.w("no_night")}</p>'
        return ""  # structure entries (discussion, accusations, speeches) draw nothing by themselves


def render(record: GameRecord, ratings: dict | None = None) -> str:
    """The game's page; `ratings` (seat -> club.Change) adds each player's rating change."""
    return Page(record, build(record.entries), ratings).render()


CSS = """
:root{--town:#b91c1c;--town-bg:#fde8e8;--mafia:#111827;--mafia-bg:#d1d5db;--maniac:#6d28d9;--maniac-bg:#ede9fe;
--ink:#1f2937;--soft:#6b7280;--line:#e5e7eb;--card:#fff;--page:#f4f1ea;--accent:#b45309}
*{box-sizing:border-box}
body{margin:0;background:var(--page);color:var(--ink);font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:860px;margin:0 auto;padding:12px}
h1{font-size:1.5rem;margin:.2em 0}h2{font-size:1.15rem;margin:1.2em 0 .5em}h3{margin:0 0 .4em;font-size:1.05rem}
h4{margin:.2em 0 .3em;font-size:.95rem}
header{background:var(--card);border-radius:12px;padding:12px 14px;box-shadow:0 1px 2px #0002}
.meta{color:var(--soft);margin:.2em 0 .6em}
.winner{font-size:1.3rem;font-weight:700;padding:8px 12px;border-radius:8px;background:#e5e7eb}
.winner.town{background:var(--town-bg);color:var(--town)}.winner.mafia{background:var(--mafia);color:#fff}
.winner.maniac{background:var(--maniac-bg);color:var(--maniac)}
.sofar{background:#fef3c7;border-radius:8px;padding:6px 10px;color:#92400e}
.deal ol{list-style:none;padding:0;margin:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,250px),1fr));gap:6px}
.deal li{display:flex;gap:8px;align-items:flex-start;background:var(--card);border-radius:10px;padding:7px 9px;border-left:6px solid var(--town)}
.deal li.mafia{border-left-color:var(--mafia)}.deal li.maniac{border-left-color:var(--maniac)}
.deal li.gone{background:#f3f4f6}.deal li.gone .num{color:var(--soft)}.deal .num{font-weight:700;font-size:1.2rem;min-width:1.6em;text-align:center}
.deal .who{display:flex;flex-direction:column;min-width:0;flex:1;overflow-wrap:break-word}
.deal em{font-style:normal;font-weight:600}.deal li.mafia em{color:var(--mafia)}.deal li.town em{color:var(--town)}
.deal .fate{font-size:.8rem;color:var(--soft);text-align:right;max-width:40%;overflow-wrap:break-word}
.deal .fate i{display:block;font-style:normal;color:var(--accent)}
.period{background:var(--card);border-radius:12px;padding:10px 12px;margin:10px 0;box-shadow:0 1px 2px #0002}
.period.night{background:#1e2433;color:#e5e7eb}.period.night .p{background:#2d3547;color:#f3f4f6}
.period.night .p.mafia{background:#000;color:#fff;outline:1px solid #6b7280}
.period.night h3{color:#fcd34d}
.p{display:inline-block;border-radius:6px;padding:0 6px;margin:1px 0;background:var(--town-bg);color:var(--town);white-space:nowrap;
max-width:14em;overflow:hidden;text-overflow:ellipsis;vertical-align:bottom}
.p b{font-weight:700}.p.mafia{background:var(--mafia);color:#fff}.p.maniac{background:var(--maniac-bg);color:var(--maniac)}
.speeches{list-style:none;padding:0;margin:.3em 0}
.speeches li{padding:4px 0;border-bottom:1px solid var(--line)}
.sp{display:flex;gap:6px;align-items:baseline;flex-wrap:wrap}.sp .kind{color:var(--soft);font-size:.85rem}
.sp .t{margin-left:auto;font-variant-numeric:tabular-nums;font-size:.85rem;color:var(--soft)}
svg.len{display:block;width:100%;height:4px;margin-top:2px}svg.len .bg{fill:var(--line)}svg.len .fg{fill:#9ca3af}
.notes{font-size:.9rem;margin-top:2px}.nom{color:var(--accent);font-weight:600;margin-right:8px}
.rev{color:var(--soft);margin-right:8px}.foul,.notes .foul{color:#c2410c}
.vote{border:1px solid var(--line);border-radius:10px;padding:8px 10px;margin:8px 0;background:#fafafa}
.vote .row{display:grid;grid-template-columns:minmax(4.5em,9em) 1fr 2em;gap:2px 8px;align-items:center;margin:3px 0}
.vote .row .vs{grid-column:1/4;font-size:.8rem;color:var(--soft)}
svg.bar{width:100%;height:14px;display:block}svg.bar .bg{fill:var(--line)}svg.bar .fg{fill:#9ca3af}
.row.top svg.bar .fg,.yn svg.bar .fg{fill:var(--accent)}svg.bar .half{fill:var(--ink)}
.vote .cand{min-width:0}.vote .cand .p{max-width:100%}
.vote .n{font-weight:700;text-align:right;font-variant-numeric:tabular-nums}
.vote p{margin:.3em 0}.ok{color:#15803d}.ko{color:#b91c1c}
.note,.quiet{color:var(--soft);font-size:.9rem;margin:.3em 0}.period.night .note,.period.night .quiet{color:#9ca3af}
.out{font-weight:600;margin:.4em 0;padding:4px 8px;border-radius:8px;background:#fee2e2;color:#7f1d1d}
.period.night .out{background:#3b1d1d;color:#fecaca}.out .role{font-weight:400}
.split{font-weight:600;color:var(--accent)}
.shot{margin:.3em 0}.shot ul{margin:.2em 0;padding-left:1.2em}.shot .res{margin:.2em 0;font-weight:600}
.check b.mafia{color:#f87171}.check b.town{color:#86efac}
.act{margin:.3em 0}
.rating table{width:100%;border-collapse:collapse;background:var(--card);border-radius:12px;overflow:hidden;
box-shadow:0 1px 2px #0002;font-variant-numeric:tabular-nums}
.rating th,.rating td{padding:5px 8px;text-align:right;border-bottom:1px solid var(--line)}
.rating th{font-size:.8rem;color:var(--soft);font-weight:600}.rating th:first-child,.rating td:first-child{text-align:left}
.rating i{font-style:normal;color:var(--soft);font-size:.85rem}.rating .up{color:#15803d;font-weight:600}.rating .down{color:#b91c1c}
footer{color:var(--soft);font-size:.8rem;text-align:center;margin:16px 0 8px}
@media (min-width:700px){main{padding:20px}.vote .row{grid-template-columns:10em 1fr 2em 16em}.vote .row .vs{grid-column:auto}}
"""
