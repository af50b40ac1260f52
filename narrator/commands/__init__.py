"""The subcommands of `narrator`, one module each: `register(subparsers)` adds its parser, and its
`cmd_…` function runs it. `terminal` holds what they all print through; `live_game` what `play`
and `resume` share. Only narrator/cli.py imports them."""
