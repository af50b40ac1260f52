"""A live game at the table, as `play` and `resume` both run it: the outputs, the companion, the
microphone, the hot-seat reveal and what is said when the game ends or stops."""

from __future__ import annotations

import asyncio

from rich.console import Console
from rich.text import Text

from ..config import Config, default_config
from ..flow.events import Deal
from ..journal import Journal, JournalError
from . import terminal
from .terminal import cli_words, say_error, voice_of


def _voice_words(voice, exc) -> str:
    """Why the speaker or the microphone cannot be had, in the table's language, without the way
    on without sound (each caller names its own)."""
    worded = getattr(exc, "worded", None)
    if worded is not None and worded.is_said_in(voice):
        return worded.said(voice)
    from ..voice.audio import FALLBACK

    return str(exc).removesuffix("; " + FALLBACK)


def outputs_for(live, voice_mode: str, console: Console, companion: bool = False):
    from ..console import ConsoleOutput

    outputs = [ConsoleOutput(live, console, show_private=not companion)]
    if voice_mode not in ("speech", "auto"):
        return outputs
    voice = voice_of(live.config) or voice_of(default_config())
    try:
        from ..voice import AudioUnavailable, make_speech_output
    except ImportError:
        say_error(cli_words(voice, "no_speech_packages"), "", "yellow")
        return outputs
    try:
        speech = make_speech_output(live.config, live)
        outputs.append(speech)
        if getattr(speech, "notice", None):
            instead = getattr(getattr(speech, "renderer", None), "instead_of", None)
            notice = cli_words(voice, "speaking_with_espeak", why=_voice_words(voice, instead)) if instead else speech.notice
            terminal.err.print(Text(notice, style="yellow"))
        problem = getattr(getattr(speech, "renderer", None), "cache_problem", None)
        if problem is not None:
            terminal.err.print(Text(cli_words(voice, "speech_cache_unwritable", folder=str(speech.renderer.cache_dir),
                                              reason=problem.strerror or str(problem)), style="yellow"), soft_wrap=True)
    except AudioUnavailable as exc:
        # one line: why the narrator is silent, and what makes it speak
        say_error(cli_words(voice, "narrating_as_text", why=_voice_words(voice, exc)), "", "yellow")
    return outputs


def keep_shown(live, console: Console, line: Text, now: bool = True) -> None:
    """A line the host needs all game long (where the journal is, how to get help, what to do
    after a crash): printed now and again after every wipe of the screen, at every night step
    and at dawn, so that it is still there when he needs it. Nothing in it is secret."""
    if now:
        console.print(line, soft_wrap=True)  # a path must stay whole to be copied
    for out in live.outputs:
        if hasattr(out, "kept"):
            out.kept.append(line)
            break


def _resumed(first: list) -> bool:
    return bool(first) and getattr(first[0], "line", None) == "resuming"


def _before_the_step(first: list, say) -> list:
    """A line for the table at the start: after the welcome of a new game; in a resumed one before
    the lines of the running step ("Player 4, you have a minute."), whose timer starts once they
    are heard — the explanation must not eat a speaker's time, nor the step's."""
    first = list(first)
    if _resumed(first):
        first.insert(1, say)
    else:
        first.append(say)
    return first


async def run_live(live, first, initial, args, console: Console, journaled: bool = False) -> int:
    from ..console import read_console

    handles = []
    listener = None
    keypad = None
    live.attach()
    if companion_on(args, live.config):
        try:
            from ..companion import start as start_companion

            h = start_companion(live.config, live)
            handles.append(h)
            if initial:
                # each phone shows its role and asks Ready: night zero waits until every seat is
                # ready (or the host starts it), or it would run while players still look at their role
                deal_events, initial = initial, []
                shown = journaled
                if not journaled and live.journal is not None and any(isinstance(e, Deal) for e in deal_events):
                    # journaled as the phones show it: a crash while the players look at their roles
                    # resumes this deal, never another one behind their backs
                    try:
                        for e in deal_events:
                            live.journal.append(e)
                    except JournalError as exc:
                        journal_failed(exc, live.voice)
                        return 2
                    shown = True
                asyncio.get_running_loop().create_task(h.deal_when_ready(deal_events, journaled=shown))
        except ImportError as exc:
            say_error(cli_words(live.voice, "companion_missing", error=str(exc)), "", "yellow")
        except OSError as exc:
            say_error(cli_words(live.voice, "companion_port", host=live.config.section("companion")["host"],
                                port=str(live.config.section("companion")["port"]), error=str(exc)), "", "red")
            return 2
    elif live.config.section("input")["console"]:
        from ..companion import KeypadInput
        from ..flow.effects import Say

        # without phones the night's choices are typed: the narrator explains the sound masking,
        # once a game — the table heard it when the game began, and a resume says only where it stands
        keypad = KeypadInput(live)
        if not _resumed(first):
            # the speaker's rain (voice.ambience) covers the keys too, when there is a speaker
            rain = live.config.section("voice")["ambience"] > 0 and any(hasattr(o, "queued_seconds") for o in live.outputs)
            first = _before_the_step(first, Say("keypad_masking_sound" if rain else "keypad_masking", {}))
    if getattr(args, "listen", False) or live.config.section("input")["engine"] != "none":
        try:
            from ..voice import start_listening

            listener = start_listening(live.config, live, host_screen=bool(handles))
            _better_ears_hint(live.config, listener, live.voice)
        except ImportError:
            say_error(cli_words(live.voice, "no_recognition_installed"), "", "yellow")
        except Exception as exc:  # a missing microphone or model must not stop the game
            from ..voice.audio import FALLBACK

            # the game goes on either way: the way on is the console, whatever the voice output
            why = _voice_words(live.voice, exc)
            gone = getattr(exc, "fallback", False) or FALLBACK in str(exc)
            say_error(cli_words(live.voice, "hearing_failed", why=why) if gone else why, "", "yellow")
        if listener is None:
            # the table must know the narrator is deaf: say so, in its own language, after the welcome
            from ..flow.effects import Say

            # where nominations can be made instead: the host screen has them, the phones do not
            first = _before_the_step(first, Say("no_recognition_host" if handles else "no_recognition", {}))
    if live.config.section("input")["console"]:
        on_start = None
        if handles:
            loop = asyncio.get_running_loop()
            on_start = lambda: loop.call_soon_threadsafe(handles[0].hub.start)  # noqa: E731
        read_console(live, console=console, keypad=keypad, on_start=on_start)
    try:
        winner = await live.run(first, initial, journaled=journaled)
        if winner and live.failure is None:
            console.print(Text(live.voice.console_text("game_over", {"winner": live.voice.winner(winner)}),
                               style="bold"))
            _game_report(live, console)  # before the result stays up: the phones link to the report
        if winner and handles:
            # the result stays on every phone (and reaches a phone that reconnects) until the host closes it
            await handles[0].keep_result(live, console)
        if winner:
            # the speaker closes below: the table hears who won (and who the mafia were) first —
            # the stream used to be stopped while the winner's line was still queued
            _let_it_be_said(live, limit=60.0)
    finally:
        if listener is not None:
            listener.stop()
        for out in live.outputs:
            if hasattr(out, "queued_seconds"):  # the speaker: its engine finishes the line it renders
                out.close()
        for h in handles:
            r = h.stop()
            if asyncio.iscoroutine(r):
                await r
    if live.failure is not None:
        from ..console import status_text

        journal_failed(live.failure, live.voice)
        terminal.err.print(Text(cli_words(live.voice, "stood_at"), style="dim"))
        terminal.err.print(Text(status_text(live)))
        _let_it_be_said(live)
        return 3
    if not winner:
        from ..console import path_shown

        path = path_shown(live.journal.path, console) if live.journal else ""
        console.print(Text(live.voice.console_text("stopped", {"path": path})), soft_wrap=True)
    return 0


def _game_report(live, console: Console) -> None:
    from ..report.live import finish

    written, warnings = finish(live)
    for w in warnings:
        terminal.err.print(Text(cli_words(live.voice, "note") + " ", style="yellow") + Text(w))
    if written:
        console.print(Text(live.voice.console_text("report", {"path": written[0]})), soft_wrap=True)  # a path must stay whole to be copied


def _better_ears_hint(cfg: Config, listener, voice=None) -> None:
    """An English table with no Vosk model hears through PocketSphinx, which misses far more: say
    once, in the terminal only (the table hears nothing of it), what gives better ears."""
    engine = getattr(getattr(listener, "input", None), "engine", None)
    if cfg.section("input")["engine"] == "auto" and getattr(engine, "name", "") == "sphinx":
        terminal.err.print(Text(cli_words(voice, "better_ears", lang=cfg.language), style="yellow"))
    if getattr(engine, "name", "") == "sphinx" and cfg.section("input")["second_opinion"] and engine.judge is None:
        from ..voice.whisper_judge import PACKAGE

        # without it one heard seat in five is the wrong one (the digits model alone: one in fourteen)
        terminal.err.print(Text(cli_words(voice, "no_whisper", package=PACKAGE), style="yellow"))


def _let_it_be_said(live, limit: float = 20.0) -> None:
    """The table hears the last lines (why the game stopped, who won) before the process ends: the
    speaker's queue drains, for `limit` seconds at most."""
    import time

    end = time.monotonic() + limit
    for out in live.outputs:
        queued = getattr(out, "queued_seconds", None)
        if queued is None:
            continue
        time.sleep(0.2)  # the line reaches the player's queue
        while time.monotonic() < end and (queued() > 0 or live.narrating.is_set()):
            time.sleep(0.05)


def journal_failed(exc: JournalError, voice=None, what: str = "game_stopped") -> None:
    terminal.err.print(Text.assemble((f"{cli_words(voice, what)}: ", "red"), exc.said(voice)), soft_wrap=True)  # a path must stay whole to be copied


def journal_line(live, jpath, console: Console | None = None) -> Text:
    from ..console import path_shown

    return Text(live.voice.console_text("journal", {"path": path_shown(jpath, console)}), style="dim")


def resumed_shown(live, console: Console, n: int, jpath) -> None:
    """"Resumed N inputs from F": the count is news once; after a wipe the host still finds the
    journal and help."""
    from ..console import path_shown

    console.print(Text(live.voice.console_text("resumed", {"n": n, "path": path_shown(jpath, console)}), style="dim"),
                  soft_wrap=True)
    keep_shown(live, console, journal_line(live, jpath, console), now=False)


def companion_on(args, cfg: Config, header: dict | None = None) -> bool:
    """The companion runs: asked for (--companion), enabled in the config, or — for a journaled
    game — noted in its header as having run (session.companion_ran, which the report reads too)."""
    from ..session import companion_ran

    return bool(getattr(args, "companion", False) or companion_ran(header or {}, cfg))


def companion_blocked(cfg: Config, voice) -> str | None:
    """Why the phones could not join this game (the web pages not installed, the companion's
    address taken by another game), found before anything is written or said: a table that asked
    for phones gets them or an answer, never a game whose votes are called on phones nobody has."""
    try:
        from ..companion import server  # the web stack, imported as the game would
    except ImportError as exc:
        return cli_words(voice, "companion_missing", error=str(exc))
    section = cfg.section("companion")
    host, port = section["host"], section["port"]
    try:
        server.bound_socket(host, port).close()  # bound as the companion binds, then let go
    except OSError as exc:
        return cli_words(voice, "companion_port", host=host, port=str(port), error=exc.strerror or str(exc))
    return None


def reveal_deal(cfg: Config, deal, live, console: Console, journal: Journal, seen: list[int], intro: str | None = None,
                new_deal: bool = False) -> int | None:
    """The hot-seat reveal, seat by seat, each seat marked in the journal once it has looked. A
    `new_deal` is journaled first: a crash in the reveal must keep the deal somebody has seen."""
    from ..console import reveal_roles

    try:
        if new_deal:
            journal.append(deal)
        reveal_roles(dict(_full_deal(cfg, deal)), live.voice, console, skip=set(seen), seen=journal.revealed, intro=intro,
                     players=cfg.players)
    except JournalError as exc:
        journal_failed(exc, live.voice)
        return 3
    return None


def _full_deal(cfg: Config, deal) -> dict[int, str]:
    named = dict(deal.roles)
    return {s: named.get(s, "citizen") for s in range(1, cfg.seats + 1)}
