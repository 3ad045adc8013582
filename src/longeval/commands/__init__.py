"""The `longeval` subcommands, one module each; each exposes `register(app)`."""
