"""The game report: a protocol or a journal rendered as one self-contained HTML page.

`read_game(path)` reads either kind of file (problems named by file and line, an unfinished game
kept "so far"); `render(record)` draws the page in the table's language."""

from .page import render, report_words
from .reader import GameRecord, Problem, ReadError, read_game, table_entry

__all__ = ["GameRecord", "Problem", "ReadError", "read_game", "render", "report_words", "table_entry"]
