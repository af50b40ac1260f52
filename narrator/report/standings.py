"""The season's standings as one self-contained HTML page, in the game report's style: the table of
ratings and figures and one chart of every member's rating over the season, an inline SVG drawn
here (no script, no network). Every name is escaped: the page is built from escaped fragments."""

from __future__ import annotations

import time

from .page import CSS, esc, report_words

# one colour a member, told apart on a light page; the table's dot is the chart's line
PALETTE = ("#b91c1c", "#1d4ed8", "#15803d", "#b45309", "#7c3aed", "#0f766e", "#be185d", "#4d7c0f",
           "#1f2937", "#c2410c", "#0369a1", "#a21caf")

STANDINGS_CSS = """
.standings{width:100%;border-collapse:collapse;background:var(--card);border-radius:12px;overflow:hidden;
box-shadow:0 1px 2px #0002;font-variant-numeric:tabular-nums}
.standings th,.standings td{padding:6px 8px;text-align:right;border-bottom:1px solid var(--line);white-space:nowrap}
.standings th{font-size:.8rem;color:var(--soft);font-weight:600;background:#fafafa}
.standings td.who,.standings th.who{text-align:left;white-space:normal;overflow-wrap:break-word;min-width:6em}
.standings td.rk{color:var(--soft)}.standings td.mu b{font-size:1.05rem}.standings td.mu i{font-style:normal;color:var(--soft);font-size:.85rem}
.standings tr.guest td{color:var(--soft)}
.nw{white-space:nowrap}
.dot{display:inline-block;width:.7em;height:.7em;border-radius:50%;margin-right:.4em;vertical-align:baseline}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;border-radius:12px}
.chart{background:var(--card);border-radius:12px;padding:10px 12px;box-shadow:0 1px 2px #0002}
svg.ratings{display:block;width:100%;height:auto}
svg.ratings text{font:15px system-ui,sans-serif;fill:var(--soft)}
.axis{display:flex;justify-content:space-between;font-size:.8rem;color:var(--soft);padding-left:5%}
svg.ratings .grid{stroke:var(--line);stroke-width:1}svg.ratings .start{stroke:var(--soft);stroke-dasharray:4 4}
svg.ratings polyline{fill:none;stroke-width:2;stroke-linejoin:round;stroke-linecap:round}
@media (max-width:520px){.standings .wide{display:none}.standings th,.standings td{padding:6px 4px}main{padding:8px}}
"""


def _day(t: float) -> str:
    return time.strftime("%Y-%m-%d", time.localtime(t))


class Standings:
    def __init__(self, club, voice, season=None):
        self.club, self.season = club, season
        self.lang = getattr(voice, "lang", None) or "en"
        self.words = report_words(self.lang)

    def w(self, key: str, html: tuple[str, ...] = (), **args) -> str:
        """A line of the page's language; the arguments named in `html` are markup already."""
        return esc(self.words.get(key, key)).format(**{k: v if k in html else esc(v) for k, v in args.items()})

    def colours(self) -> dict[str, str]:
        from ..club import by_rating

        members = [r.key for r in by_rating(self.club.rows) if r.key and r.rating]
        return {k: PALETTE[i % len(PALETTE)] for i, k in enumerate(members)}

    def table(self, colours: dict[str, str]) -> str:
        from ..club import by_rating, rate

        head = "".join(
            f'<th class="{cls}">{self.w(key)}</th>' for key, cls in (
                ("standings_rank", ""), ("standings_player", "who"), ("standings_rating", ""), ("standings_games", ""),
                ("standings_wins", "wide"), ("standings_win_rate", ""), ("standings_town", "wide"), ("standings_mafia", "wide")))
        rows = []
        rank = 0
        for r in by_rating(self.club.rows):
            guest = r.rating is None
            if not guest:
                rank += 1
            dot = f'<span class="dot" style="background:{colours[r.key]}"></span>' if r.key in colours else ""
            mu = (f'<b>{r.rating[0]:.1f}</b> <i>±{r.rating[1]:.1f}</i>' if not guest else self.w("rating_guest"))
            rows.append(
                f'<tr class="{"guest" if guest else "member"}"><td class="rk">{rank if not guest else ""}</td>'
                f'<td class="who">{dot}{esc(r.name)}</td><td class="mu">{mu}</td><td>{r.games}</td>'
                f'<td class="wide">{r.wins}</td><td>{esc(rate(r.wins, r.games))}</td>'
                f'<td class="wide">{r.town_games} · {esc(rate(r.town_wins, r.town_games))}</td>'
                f'<td class="wide">{r.mafia_games} · {esc(rate(r.mafia_wins, r.mafia_games))}</td></tr>')
        return f'<div class="scroll"><table class="standings"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table></div>'

    def chart(self, colours: dict[str, str]) -> str:
        """Each member's rating (mu) after each game of the season, x the game's place in it."""
        history = self.club.ratings.history
        start = self.club.ratings.start[0]
        if not history or not colours:
            return ""
        width, height, left, right, top, bottom = 640, 300, 34, 10, 10, 10
        values = [start] + [mu for _, after in history for k, mu in after.items() if k in colours]
        low, high = min(values), max(values)
        pad = max(0.5, (high - low) * 0.08)
        low, high = low - pad, high + pad
        n = len(history)

        def x(i: int) -> float:
            return left + (width - left - right) * (i / n)

        def y(v: float) -> float:
            return top + (height - top - bottom) * (1 - (v - low) / (high - low))

        parts = []
        step = max(1, round((high - low) / 5))
        tick = int(low) + 1
        while tick < high:
            if (tick - int(start)) % step == 0:
                parts.append(f'<line class="grid" x1="{left}" x2="{width - right}" y1="{y(tick):.1f}" y2="{y(tick):.1f}"/>'
                             f'<text x="{left - 4}" y="{y(tick) + 5:.1f}" text-anchor="end">{tick}</text>')
            tick += 1
        parts.append(f'<line class="start" x1="{left}" x2="{width - right}" y1="{y(start):.1f}" y2="{y(start):.1f}"/>')
        # the first and last game's days under the chart, as the page's text: read at a phone's size too
        first_day, last_day = _day(history[0][0].order()[0]), _day(history[-1][0].order()[0])
        axis = f'<div class="axis"><span>{esc(first_day)}</span><span>{esc(last_day)}</span></div>'
        for key, colour in reversed(list(colours.items())):  # the leader drawn last, on top
            points = []
            for i, (game, after) in enumerate(history, start=1):
                if key not in after:
                    continue
                if not points:
                    points.append(f"{x(i - 1):.1f},{y(start):.1f}")
                points.append(f"{x(i):.1f},{y(after[key]):.1f}")
            name = esc(self.club.people.names.get(key, key))
            parts.append(f'<polyline stroke="{colour}" points="{" ".join(points)}"><title>{name}</title></polyline>')
        label = self.w("standings_chart")
        return (f'<section class="chart"><h2>{label}</h2>'
                f'<svg class="ratings" viewBox="0 0 {width} {height}" role="img" aria-label="{label}">{"".join(parts)}</svg>{axis}'
                f'<p class="note">{self.w("standings_chart_note")}</p></section>')

    def render(self) -> str:
        club, season = self.club, self.season
        if season is not None:
            # a date is one word: at a phone's width the header broke it at its hyphen ("2026-" / "12-31")
            first, last = (f'<span class="nw">{esc(d.isoformat())}</span>' for d in (season.first, season.last))
            scope = self.w("standings_season", html=("first", "last"), name=season.name, first=first, last=last)
        else:
            scope = self.w("standings_all")
        meta = [scope, self.w("standings_count", n=len(club.games))]
        colours = self.colours()
        parts = [f'<header><h1>{self.w("standings_title")}</h1><p class="meta">{" · ".join(meta)}</p></header>']
        if club.rows:
            parts += [f'<h2>{self.w("standings_rating")}</h2>', self.table(colours)]
            if any(r.rating is None for r in club.rows):
                parts.append(f'<p class="note">{self.w("standings_guests")}</p>')
            parts.append(self.chart(colours))
        else:
            parts.append(f'<p class="note">{self.w("standings_empty")}</p>')
        parts.append(f'<footer>{self.w("standings_footer")}</footer>')
        title = self.w("standings_title") + " — " + (
            self.w("standings_season", name=season.name, first=season.first.isoformat(), last=season.last.isoformat())
            if season is not None else scope)
        return (
            f'<!DOCTYPE html>\n<html lang="{esc(self.lang)}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">"
            f"<title>{title}</title><style>{CSS}{STANDINGS_CSS}</style></head><body><main>\n"
            + "\n".join(p for p in parts if p)
            + "\n</main></body></html>\n")


def render(club, voice, season=None) -> str:
    return Standings(club, voice, season).render()
