"""The host screen: the moment described for the host — what the game waits for, his buttons
(the moment's host actions), the answers he may record for a seat without a phone, the hands he may
enter where the phones do not vote.
"""

from __future__ import annotations

from ..flow.moment import Moment
from .phone_screen import REPORT_URL
from .transport import _is_int



class HostScreen:
    """The host screen's frame (`host_frame`) and the offers it carries. Mixed into `Hub` (hub.py),
    whose state it shares."""

    def host_frame(self) -> dict:
        g = self.game
        m = g.moment()
        view = g.public_view()
        remaining = self.live.timer_remaining()
        return {
            "t": "host",
            "seats": self.config.seats,
            "view": {k: (dict((str(a), b) for a, b in v.items()) if isinstance(v, dict) else v) for k, v in view.items()}
            | {"nominations": list(m.nominations)},
            "step": g.step.name if g.step is not None else None,
            "night": g.night_no if m.phase == "night" else None,  # its number beside a night's heading
            "phase": self.phase_text(host=True),
            "role_names": self._role_names(view),
            "names": self.names(),
            # the host screen's lists name seats as the phones do: labels and the nominees' line
            # come from here, never put together by the page
            "labels": self.labels(),
            "nominees_text": ", ".join(self.seat_label(s) for s in m.nominations),
            "ballot": self.ballot(),
            "caption": self.caption,
            "timer": self.timer_name,
            "remaining": round(remaining, 1) if remaining is not None and self.timer_name else None,
            "day_held": self.day_held(),
            "paused": bool(self.live.paused),
            "phones": sorted(s for s, c in self.phones.items() if not c.closed),
            "ready": sorted(self.ready) if self.dealt is not None and m.phase == "setup" else None,
            "winner_text": self.phase_winner() if m.phase == "over" else None,
            "closed": self.closed.is_set(),
            "awaiting": self.host_awaiting(),
            "awaiting_votes": self.host_awaiting_votes(),
            "report_url": REPORT_URL if m.phase == "over" else None,
            # the referee's fouls, disqualification and team defeat (classic, seed 004 §5-7): the
            # other rule systems have none, and their screen shows no such buttons
            "penalties": m.penalties,
            # tonight's fouls and dismissals, the table hears them in the morning: shown to the host
            # alone until then, each as it was confirmed to him (also after a reload or a resume)
            "held": [self.named(line, args, self.live.voice.render(line, args)) for line, args in g.held_for_host()],
            # seed 000: the screen asks who nominates (and whose nomination is withdrawn) beside the seat
            "nominator": m.nominator_named,
            "controls": self.host_controls(m),
            # the answers this screen may record for a seat the game calls on now (a player without
            # a phone): the same moments his phone would have buttons, never at night
            "proxy": self.host_votes(m),
            # hands by day at a table whose phones do not vote: the count waits for the scorer's
            # line, and the host may give it here
            "hands": self.host_hands(m),
            # End speech where somebody holds the floor; where nobody does (grundregeln's
            # discussion, hungariq's debate) the same button ends the discussion, and says so
            "end_speech_label": self.word("host_end_speech" if g.floor is not None else "host_end_discussion"),
        }

    def host_controls(self, m: Moment | None = None) -> list[str]:
        """The host screen's buttons now: the page shows these and no other, and the server takes
        no other action from it (`_host_action`). What the table's rules answer in this very state
        (`host_offers`); Pause while the game runs, never at night (its steps run their full time),
        Resume only while paused — and in a pause nothing else: nothing changes the game then.
        Reissuing a seat's link is the phones', not the game's, and always there."""
        m, live = m or self.game.moment(), self.live
        if m.phase in ("setup", "over"):
            return ["reissue"]
        if live.paused:
            return ["resume", "reissue"]
        night = m.phase == "night" and live.pause_refusal("pause") == "pause_at_night"
        # the moment's host actions: what the rules answer now, with the day's time extension
        # while the table is asked for it (seed 000 Tid), for a player who asks aloud and has no phone
        return [*([] if night else ["pause"]), *m.host, "reissue"]

    # the host screen's words above a seat's buttons, by how the moment's answer is given
    PROXY_WORDS = {"point": "host_point_for", "hand": "host_hand_for", "choose": "host_choose_for"}

    def host_votes(self, m: Moment | None = None) -> dict | None:
        """What the host may record for a seat now, exactly where the game takes a tap from that
        seat (a day vote on the phones, a yes/no question, grundregeln's pointing, a Swedish hand,
        a kamikaze's choice): the seats it calls on, each with the words above its buttons and
        whether its phone is connected. Never at night (a tap there would show the host who is
        awake), never in a pause, never the time extension (the host has his own button for it)."""
        m = m or self.game.moment()
        if m.phase != "day" or self.live.paused:
            return None
        ask, choices = self._ask(m)
        if ask not in ("seat", "yes_no"):
            return None
        seats = [s for s in m.voters if _is_int(s) and self._voted.get(s) != self.epoch]
        if not seats:
            return None
        key = self.PROXY_WORDS.get(m.answer, "host_vote_for")
        connected = {s for s, c in self.phones.items() if not c.closed}
        rows = []
        for s in seats:
            row = {"seat": s, "text": self._seat_words(key, s), "phone": s in connected, "barred": self._barred(s, ask, m)}
            if row["phone"]:
                row["confirm"] = self._seat_words("host_confirm_vote_connected", s)
            rows.append(row)
        # phone-less seats first: they are what the host is there for
        rows.sort(key=lambda r: r["phone"])
        return {"epoch": self.epoch, "ask": ask, "choices": choices,
                "labels": {str(c): self.seat_label(c) for c in choices}, "rows": rows}

    def host_hands(self, m: Moment | None = None) -> dict | None:
        """The hands the host may record now: where the phones do not vote and the hand call's time
        is over, its count waiting for the scorer's line (LiveSession.hands_waiting). A table whose
        terminal nobody watches is not stuck: the host taps the seats that raised a hand, then
        Confirm (or Nobody). One row of seats per candidate voted on: one for the name called (or
        the yes), one for each where several are voted on in one window (classic's `together`,
        grundregeln's pointing and votes) — there each seat votes once (seed 004 §4.4 «Each player
        can only cast their vote for only one player», seed 003 «zeigt jeder Spieler … auf einen
        Mitspieler»), so the page lets a seat stand in one row only. The rows hold the votes the
        game has already (`cast`: a `tap` or a `7: 3 5` line typed at the console), fixed."""
        live, g = self.live, self.game
        waiting = getattr(live, "hands_waiting", lambda: False)
        if self.votes_on_phones or live.paused or not waiting():
            return None
        m = m or g.moment()
        kind, candidates = g.vote_choices()
        voters = [s for s in self._called_voters() if _is_int(s)]
        cast = g.ballot_cast()
        several = kind == "seat" and len(candidates) > 1
        pointing = m.answer == "point"
        if several:
            text = self.word("host_hands_awaited_pointing" if pointing else "host_hands_awaited_several")
            if m.decider is not None and voters:
                # seed 003: the last dead decides alone — his seat under the player he names
                text = self._seat_words("host_hands_awaited_decider", voters[0])
            row_words = "host_hands_row_point" if pointing else "host_hands_row"
            rows = [{"seat": c, "text": self._seat_words(row_words, c),
                     "cast": [v for v, (t, _) in cast.items() if t == c]} for c in candidates]
        else:
            target = candidates[0] if kind == "seat" else None
            text = self._seat_words("host_hands_awaited", target) if kind == "seat" else self.word("host_hands_awaited_yes")
            rows = [{"seat": target, "text": None,
                     "cast": [v for v, (t, yes) in cast.items() if (t == target if kind == "seat" else yes)]}]
        shown = {*voters, *candidates, *(v for r in rows for v in r["cast"])}
        return {"call": live.hand_call(), "epoch": self.epoch, "text": text, "several": several,
                "seats": voters, "rows": rows,
                # a seat's own row in the pointing (seed 003: one points at a fellow player)
                "barred": {str(v): self._barred(v, "seat", m) for v in voters if self._barred(v, "seat", m)},
                "labels": {str(s): self.seat_label(s) for s in sorted(shown)}}

    def host_awaiting(self) -> str:
        """What the game waits for, in the host screen's words: what the host can do there (its
        End speech button), never the console's commands ("thank you", "timeout") he cannot type."""
        if self.live.paused:
            # in a pause the game waits for nothing but the host: the votes or the speech it
            # waited for are held, and his Resume button (named as it reads) goes on
            return self.live.voice.fill(self._phone_template("host_waiting_paused"),
                                        {"button": self._phone_template("host_resume")}, capital=False)
        hands = self._hands_awaiting()
        if hands is not None:
            return hands
        kind, args = self.game.awaiting()
        key = "host_" + kind
        if kind == "awaiting_timeout" and self.game.floor is None and "end_speech" in self.game.moment().host:
            key = "host_awaiting_discussion"  # the time, or his button that ends the discussion now
        elif kind == "awaiting_timeout" and self._extension_offered():
            key = "host_awaiting_extension"  # the time, or somebody's request: a phone's, a voice's, his button
        template = self._phone_template(key)
        if template is None:  # the deal, the end: nothing to type in these words either
            return self.named(kind, args, self.live.session.awaiting_text(), inside=True)
        try:
            text = self.live.voice.fill(template, args, capital=False)
        except (KeyError, ValueError, IndexError):
            return ""
        return self.named(kind, args, text, inside=True, template=template)

    def _hands_awaiting(self) -> str | None:
        """Where the phones do not vote and a hand call's time is over, what the count waits for:
        the scorer's (or the host's) entry of the votes, not "votes from seats 1 … 10" — nobody
        at the table has a vote left to give, the panel above says what to tap."""
        waiting = getattr(self.live, "hands_waiting", lambda: False)
        if self.votes_on_phones or not waiting():
            return None
        kind, candidates = self.game.vote_choices()
        m = self.game.moment()
        if kind == "seat" and len(candidates) != 1:
            key, args = "host_awaiting_hands_pointing" if m.answer == "point" else "host_awaiting_hands_several", {}
            if m.decider is not None:
                key, args = "host_awaiting_hands_decider", {"seat": m.decider}
        elif kind == "seat":
            key, args = "host_awaiting_hands", {"seat": candidates[0]}
        else:
            key, args = "host_awaiting_hands_yes", {}
        template = self._phone_template(key)
        text = self.live.voice.fill(template, args, capital=False)
        return self.named(key, args, text, inside=True, template=template)

    def host_awaiting_votes(self) -> dict | None:
        """The voters the game waits for, for the host screen to list compactly: the line's words
        around the seats, and each seat with its player's name. Ten forty-letter names in one line
        ("votes from seats 1 (…), 2 (…), …") filled a small screen; the page shows each seat's
        number first and the name cut to fit, the whole name a tap away."""
        if self.live.paused or self._hands_awaiting() is not None:
            return None
        kind, args = self.game.awaiting()
        template = self._phone_template("host_" + kind)
        if kind != "awaiting_votes" or template is None or "{seats}" not in template:
            return None
        head, _, tail = template.partition("{seats}")
        try:
            head, tail = (self.live.voice.fill(t, {}, capital=False) if t else "" for t in (head, tail))
        except (KeyError, ValueError, IndexError):
            return None
        players = self.config.players
        return {"head": head, "tail": tail,
                "seats": [[s, players.get(s, "")] for s in args.get("seats", []) if _is_int(s)]}

    def hands_awaited(self) -> None:
        """The hand call's time is over and its count waits for the scorer's line: the host screens
        say so, and offer the hands."""
        self._hosts_due = True
        self._dirty = True  # the phones too: "The host is entering the votes."
        self._schedule_flush()

