"""narrator: an offline voice game master for Mafia."""

__version__ = "0.1.0"
