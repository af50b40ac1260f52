#!/usr/bin/env python3
"""Write the commented example configs in examples/ from the variant data, so that every option,
its default and the seed that sets it are always listed exactly as the code has them."""

from __future__ import annotations

from pathlib import Path

from narrator.config import ADAPTER_SECTIONS
from narrator.rules.variants import VARIANTS

EXAMPLES = [
    ("classic", "en", None, "classic sports mafia, 10 seats"),
    ("classic", "ru", None, "classic sports mafia, 10 seats"),
    ("classic", "ru", 13, "classic with more than 10 players and the extra roles of seed 002"),
    ("sverige", "sv", 12, "Maffia Sverige convention rules"),
    ("sverige", "en", 12, "Maffia Sverige convention rules"),
    ("hungariq", "hu", 12, "Mensa HungarIQ rules"),
    ("hungariq", "en", 12, "Mensa HungarIQ rules"),
    ("grundregeln", "de", 8, "German basic rules"),
    ("grundregeln", "en", 8, "German basic rules"),
]


def value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    return str(v)


def render(variant_name: str, lang: str, seats: int | None, title: str) -> str:
    v = VARIANTS[variant_name]
    n = seats or v.default_seats
    out = [
        f"# narrator — {title}, narrated in {lang}.",
        "# Only `variant` and `language` are needed; every other value shown is the default.",
        f"# Check it with:  narrator check-config examples/{name(variant_name, lang, seats)}",
        f'variant = "{variant_name}"',
        f'language = "{lang}"',
        f"seats = {n}                         # {v.name} is played with {v.seats[0]} to {v.seats[1]}",
        "",
        "[players]                            # optional names, by seat",
        '# 1 = "Anna"',
        "",
        "[dealing]",
        'mode = "random"                      # random | seeded (give seed) | fixed (give roles)',
        "# seed = 42",
        "",
        f"[roles]                              # special roles at {n} seats; citizens fill the rest",
    ]
    table = v.roles_for(n)
    extended = variant_name == "classic" and n > 10
    for role, count in table.items():
        out.append(f"{role} = {count}")
    for role in v.optional_roles:
        if role not in table:
            on = 1 if extended else 0
            # an optional role is shown with the count its seed gives it (the freemasons are two)
            one = min((c for c in v.counts.get(role, ((1,), ""))[0] if c), default=1)
            line = f"{'' if extended else '# '}{role} = {on if extended else one}"
            # a role the seed offers instead of one at the table says which one to take out
            instead = [(r, why) for group, why in v.exclusive if role in group for r in group if r != role and r in table]
            for r, why in instead:
                line = line.ljust(38) + f"# instead of the {r}: set {r} = 0 ({why})"
            out.append(line)
    out += ["", "[rules]"]
    for key, opt in v.rules.items():
        out.append(f"{key} = {value(opt.default)}".ljust(38) + f"# {opt.source}")
    out += ["", "[timers]                             # seconds"]
    for key, opt in v.timers.items():
        out.append(f"{key} = {value(opt.default)}".ljust(38) + f"# {opt.source}")
    for section, spec in ADAPTER_SECTIONS.items():
        out += ["", f"[{section}]"]
        for key, opt in spec.items():
            line = f"# {key} = {value(opt.default)}".ljust(38) + f"# {opt.source}"
            out.append(line)
        if section == "voice":
            out += ["", f"# [voice.{lang}]                        # voice, rate, volume for one language only",
                    "# rate = 150"]
    return "\n".join(out) + "\n"


def name(variant: str, lang: str, seats: int | None) -> str:
    extra = f"-{seats}" if variant == "classic" and seats else ""
    return f"{variant}{extra}-{lang}.toml"


def main() -> None:
    root = Path(__file__).resolve().parent.parent / "examples"
    root.mkdir(exist_ok=True)
    for variant, lang, seats, title in EXAMPLES:
        (root / name(variant, lang, seats)).write_text(render(variant, lang, seats, title), encoding="utf-8")
        print(root / name(variant, lang, seats))


if __name__ == "__main__":
    main()
