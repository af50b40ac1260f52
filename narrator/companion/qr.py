"""Join links and their QR codes: one per seat, in the terminal and on a printable page.

A seat's token travels only in the URL fragment, which the browser never sends to the server, and
is shown only as that seat's QR code — never as text on the shared screen.
"""

from __future__ import annotations

import contextlib
import errno
import html
import io
import os
import re
import socket
import stat
import tempfile
from pathlib import Path

import qrcode
import qrcode.image.svg


def lan_address() -> str:
    """This machine's address on the local network (loopback when there is none)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("10.255.255.255", 1))  # UDP connect sends nothing; it only picks a route
        return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()


def base_url(config, bound_host: str, port: int) -> str:
    given = config.section("companion")["public_url"]
    if given:
        return given.rstrip("/")
    host = bound_host
    if host in ("0.0.0.0", "", "::"):
        host = lan_address()
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


def seat_url(base: str, token: str) -> str:
    return f"{base}/#{token}"


def terminal_qr(data: str) -> str:
    q = qrcode.QRCode(border=1)
    q.add_data(data)
    q.make(fit=True)
    out = io.StringIO()
    q.print_ascii(out=out)
    return out.getvalue()


def svg_qr(data: str) -> str:
    img = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, box_size=10)
    text = img.to_string(encoding="unicode")
    return text[text.index("<svg"):]


def _english(key: str, **args) -> str:
    from ..language import load_voice

    return load_voice("en").phone[key].format(**args)


def seats_page(urls: dict[int, str], players: dict[int, str], word=_english, lang: str = "") -> str:
    """The printable cards, worded in the table's language (`word(key, **args)`: a [phone] string)."""
    cards = []
    hint = html.escape(word("card_hint"))
    for seat, url in sorted(urls.items()):
        typed = players.get(seat, "")
        # each word in its own box: a name breaks between its words, never inside one; a word wider
        # than the card is cut with "…", the whole name its title
        name = " ".join("".join(f'<span class="w">{html.escape(piece)}</span>' for piece in re.split(r"(?<=-)(?=.)", w))
                        for w in typed.split())
        # the longest word sets the size: a long name is printed whole, smaller, not cut (cut with "…"
        # only below a readable size: a forty-letter word on a phone's screen)
        longest = max((len(piece) for w in typed.split() for piece in re.split(r"(?<=-)(?=.)", w)), default=1)
        title = f' title="{html.escape(typed)}" style="--n:{longest}"' if typed else ""
        cards.append(
            f'<div class="card"><h2>{html.escape(word("card_seat", seat=seat))}</h2><p class="name"{title}>{name}</p>{svg_qr(url)}'
            f'<p class="hint">{hint}</p></div>'
        )
    lang_attr = f' lang="{html.escape(lang)}"' if lang else ""
    return (
        f"<!doctype html><html{lang_attr}><head><meta charset=\"utf-8\"><title>{html.escape(word('cards_title'))}</title><style>"
        "body{font-family:sans-serif}.card{display:inline-block;box-sizing:border-box;vertical-align:top;width:30%;"
        "margin:1%;padding:1em;border:1px dashed #888;text-align:center;page-break-inside:avoid}"
        ".card svg{width:60%;height:auto}.hint{font-size:small;color:#555}"
        ".card{container-type:inline-size}.name{font-size:clamp(.6em,calc(140cqw / var(--n,1)),1em)}"
        ".name .w{display:inline-block;max-width:100%;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;vertical-align:bottom;"
        "line-height:normal;padding:.12em 0}"  # room in the cut for the marks over «Ö» and the tail of «g»
        "@media screen and (max-width:700px){.card{width:47%;padding:.5em}}"
        "</style></head><body>"
        + "".join(cards)
        + "</body></html>"
    )


def write_seats_page(config, urls: dict[int, str], word=_english) -> Path:
    """The printable page, readable by this user only: it holds every seat's secret."""
    given = config.section("companion")["seats_page"]
    if given:
        path = Path(given).expanduser()
        path.parent.mkdir(parents=True, exist_ok=True)
    else:
        fd, name = tempfile.mkstemp(prefix="narrator-seats-", suffix=".html")
        os.close(fd)
        path = Path(name)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(seats_page(urls, config.players, word, config.language))
    return path


def is_ours(st: os.stat_result) -> bool:
    """An lstat() of the seat cards' file: a regular file of this user — never a link planted in
    a shared folder such as /tmp, never another user's file."""
    return stat.S_ISREG(st.st_mode) and st.st_uid == os.getuid()


class NotOurs(OSError):
    """The seat cards' file is a symbolic link or another user's file now: it is left alone."""


def rewrite_seats_page(path: Path, text: str) -> None:
    """The page at `path` replaced by `text` (a seat's link re-issued mid-game): only a regular
    file of this user is replaced, never written through a symbolic link or into another user's
    file; the new page is written beside it, readable by this user only, and renamed over it, so
    a printer or a browser never reads half a page. OSError when it cannot be done."""
    path = Path(path)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None  # deleted since: written anew where the table was told it is
    if st is not None and not is_ours(st):
        raise NotOurs(errno.EPERM, "a link or another user's file", str(path))
    fd, name = tempfile.mkstemp(prefix=".narrator-seats-", suffix=".html", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(name, path)  # a rename replaces the name itself: it never follows a link
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise
