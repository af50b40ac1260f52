"""The companion's words in the table's language: the [phone] strings, seats named with their
players' names (narrator/naming.py), roles as a list and as a sentence names them.
"""

from __future__ import annotations

from .. import naming
from ..language import load_voice



class Words:
    """The [phone] words of the table's language, seats named with their players' names. Mixed into
    `Hub` (hub.py), whose state it shares."""

    def names(self) -> dict[str, str]:
        return {str(s): n for s, n in sorted(self.config.players.items())}

    def seat_label(self, seat) -> str:
        """A seat as the phones and the host screen name it: its number, and its player's name
        when it has one ("7 (Ann)"). The one place both pages get their labels from."""
        return naming.seat_label(self.config.players, seat)

    def labels(self) -> dict[str, str]:
        """Every seat's label, for the pages' own lists (the final roles, the host's fouls)."""
        return {str(s): self.seat_label(s) for s in self.seats()}

    def named(self, line: str, args: dict, text: str | None, inside: bool = False,
              once: set[int] | None = None, template: str | None = None) -> str:
        """The narrator's line as a phone shows it: every seat it names with its player's name,
        worded as the console words it (narrator/naming.py).
        `once`: the seats named in the lines before (one caption); those keep their number only.
        `template`: the screen's own words for the line ([phone] host_<line>), put together the same way."""
        return naming.named(self.live.voice, self.config.players, line, args, text, inside=inside, once=once, template=template)

    # ------------------------------------------------------------------ words in the table's language
    def _phone_template(self, key: str) -> str | None:
        """A [phone] template of the table's language, English when the voice file lacks it, None
        when neither has it."""
        return self.live.voice.phone.get(key) or load_voice("en").phone.get(key)

    def word(self, key: str, **args) -> str:
        """A [phone] string of the table's language (English when the voice file lacks it)."""
        template = self._phone_template(key) or key
        # str.format ignores arguments a language does not use; a seat's article is put in by the voice
        return self.live.voice.words(template, args)

    def page_words(self) -> dict[str, str]:
        """Every [phone] string, for the pages to show before and between frames."""
        words = {**load_voice("en").phone, **self.live.voice.phone}
        if self.accusing():
            # one word for one thing: the host's row and button say what the phones say
            words["host_nominations"], words["host_nominate"] = words["host_accused"], words["host_accuse"]
        if self.game.moment().nominator_named:
            # seed 000: the nomination is its nominator's, whenever he made it («avnominera»), not
            # the nomination of this speech as in classic
            words["host_revoke"] = words["host_withdraw"]
        return words

    def _host_word(self, key: str, **args) -> str:
        """The host screen's own words for a [phone] line where it has them, else the phones'."""
        return self.word("host_" + key, **args) if self._phone_template("host_" + key) else self.word(key, **args)

    def _seat_words(self, key: str, seat: int) -> str:
        """A [phone] line about one seat, naming its player as the phones do ("10. játékos (Ann)")."""
        return naming.seat_words(self.live.voice, self.config.players, key, self._phone_template(key), seat)

    def _role_name(self, role: str | None) -> str | None:
        if role is None:
            return None
        key = "role_" + role
        return self.live.voice.render(key, {}) if key in self.live.voice.lines else role

    def listed_role(self, role: str) -> str:
        """A role as a list of seats names it ("6: Bybo"), the game report's word; the narrator's
        own word is for sentences ("Du är en bybo") and read "6: en bybo", "4: sheriffen"."""
        if self._listed is None:
            from ..report.page import report_words

            self._listed = report_words(self.live.voice.lang)
        return self._listed.get("role_" + role) or self._role_name(role)

    def _you_are(self, role: str | None) -> str | None:
        """The sentence the held-down area shows. A role that is a team, not a person, reads as one:
        Swedish players belong to the mafia («Du tillhör maffian», seed 000: «är i maffialaget»),
        never «Du är maffia» — a [phone] `you_are_<role>` of the table's language says so."""
        if role is None:
            return None
        own = self.live.voice.phone.get("you_are_" + role)
        return own if own else self.word("you_are", role=self._role_name(role))

    def _line(self, key: str, default: str) -> str:
        voice = self.live.voice
        return voice.render(key, {}) if key in voice.lines else default

    def phase_winner(self) -> str:
        return self.winner_text or self.word("winner_" + str(self.game.winner))

