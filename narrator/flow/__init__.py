"""The game flow: a `transitions` state machine that consumes Events and emits Effects."""
