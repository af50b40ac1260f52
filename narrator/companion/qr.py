"""Join links and their QR codes: one per seat, in the terminal and on a printable page.

A seat's token travels only in the URL fragment, which the browser never sends to the server, and
is shown only as that seat's QR code — never as text on the shared screen.
"""

from __future__ import annotations

import html
import io
import os
import socket
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
        name = html.escape(players.get(seat, ""))
        cards.append(
            f'<div class="card"><h2>{html.escape(word("card_seat", seat=seat))}</h2><p>{name}</p>{svg_qr(url)}'
            f'<p class="hint">{hint}</p></div>'
        )
    lang_attr = f' lang="{html.escape(lang)}"' if lang else ""
    return (
        f"<!doctype html><html{lang_attr}><head><meta charset=\"utf-8\"><title>{html.escape(word('cards_title'))}</title><style>"
        "body{font-family:sans-serif}.card{display:inline-block;width:30%;margin:1%;padding:1em;"
        "border:1px dashed #888;text-align:center;page-break-inside:avoid}.card svg{width:60%;height:auto}"
        ".hint{font-size:small;color:#555}</style></head><body>"
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
