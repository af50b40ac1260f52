"""A seat with its player's name, as every screen shows it: "Player 2 (Bernd), defend yourself."

Spoken, the table hears numbers (the seats are what the rules count); on a screen the name beside
the number saves a glance round the table. The phones, the host screen and the console all name
seats here, so a line reads the same on each of them, in every language.
"""

from __future__ import annotations

import re

# the public timer names of a Swedish day's time extension (seed 000 Tid): the narrator's question
# whether anyone wants it, and the extension itself (the rules' own names)
from .flow.moment import EXTENSION, EXTENSION_OFFER  # noqa: F401

# the arguments of the narrator's lines that are seats: on a screen they carry the player's name
SEAT_ARGS = ("seat", "seats", "by", "speaker", "later", "don", "sheriff")
_MARK = re.compile("\ue000(\\d+)\ue001")
# where a language glues a word to the seat number, the name goes after that word: the Hungarian
# ordinal "7. játékos" reads "7. játékos (Ann)", never "7 (Ann). játékos"
GLUED = {"hu": re.compile(r"\.\s[a-záéíóöőúüű]+")}


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def seat_label(players: dict, seat) -> str:
    """A seat as a list names it: its number, and its player's name when it has one ("7 (Ann)")."""
    name = players.get(seat) if _is_int(seat) else None
    return f"{seat} ({name})" if name else str(seat)


def named(voice, players: dict, line: str, args: dict, text: str | None, inside: bool = False,
          once: set[int] | None = None, template: str | None = None) -> str:
    """The narrator's line `line` (`text` as rendered) with every seat it names followed by its
    player's name. A name is put in after the line is filled, so a name like "{seat}" or
    "@role_don" stays text and never reads as a template.
    `once`: the seats named in the lines before (one caption); those keep their number only.
    Within the line itself a seat named twice carries its name both times.
    `template`: a screen's own words for the line ([phone] host_<line>), put together the same way.
    Where the line itself winces with a name in it (English "Player 7 (Ann)'s team"), the language
    words it for screens in [phone] named_<line>, with the same placeholders."""
    text = text or ""
    if not players or voice is None or (template is None and line not in voice.lines) or not any(k in args for k in SEAT_ARGS):
        return text
    own = template or voice.phone.get("named_" + line)
    if template is None and line in voice.variant_lines.get(voice.variant or "", {}):
        own = None  # a variant's host words this line his own way: its named form would not match

    def fill(filled: dict) -> str:
        return voice.fill(own, filled, capital=not inside) if own else voice.render(line, filled, inside=inside)

    out = names_put(voice, players, fill, args, SEAT_ARGS, once)
    return text if out is None else out


def seat_words(voice, players: dict, key: str, template: str | None, seat: int, **args) -> str:
    """A [phone] line about one seat (`template`, the words of [phone] `key`), naming its player as
    the phones do ("10. játékos (Ann)"): the host screen's heading and the console's `status` say
    the moment in these same words, so the host reads one name for one player wherever he looks."""
    args = {"seat": seat, **args}
    return named(voice, players, key, args, voice.words(template or key, args), template=template)


def names_put(voice, players: dict, fill, args: dict, seat_args=SEAT_ARGS, once: set[int] | None = None) -> str | None:
    """`fill(args)` — any words that take seat numbers, a [console] note as well as a narrator's
    line — with each seat of `seat_args` followed by its player's name; None where it names no
    seat with a name, or cannot be filled."""
    if not players:
        return None
    marked: list[int] = []

    def mark(v):
        if _is_int(v) and v in players:
            marked.append(v)
            return f"\ue000{len(marked) - 1}\ue001"
        return v

    filled = {k: ([mark(x) for x in v] if isinstance(v, (list, tuple)) else mark(v)) if k in seat_args else v
              for k, v in args.items()}
    # the article is the number's, read before the mark stands in for it: "az 1. játékos (Ann)"
    filled = {**voice.articles_of({k: v for k, v in args.items() if k in seat_args}), **filled}
    if not marked:
        return None
    try:
        out = fill(filled)
    except (KeyError, ValueError, IndexError):
        return None
    glued = GLUED.get(voice.lang)
    pattern = re.compile(_MARK.pattern + (f"({glued.pattern})?" if glued else "()"))
    named_once: set[int] = once if once is not None else set()
    # one line names a seat one way: "Who votes for player 8 (Hugo)? Every vote not yet cast goes
    # to player 8 (Hugo)." — the name both times, or a reader takes the bare 8 for someone else;
    # a seat named in an earlier line of the same caption keeps its number only ("Player 7, your
    # last words." after "Player 7 (Ann) leaves us.")
    before = set(named_once)

    def put(m: re.Match) -> str:
        seat = marked[int(m.group(1))]
        if seat in before:
            return f"{seat}{m.group(2) or ''}"
        named_once.add(seat)
        return f"{seat}{m.group(2) or ''} ({players[seat]})"

    return pattern.sub(put, out)




def state_key(game) -> str:
    """The [phone] key that words what the table is doing now (state_<name>): the game's own
    heading (`BaseGame.heading`), one answer for the phones, the host screen and `status`."""
    return game.heading()
