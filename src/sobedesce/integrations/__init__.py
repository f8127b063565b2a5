"""Bridges to other game-AI toolkits: PettingZoo (``[rl]``) and OpenSpiel (``[openspiel]``).

The core never imports this package; each module here imports the core (and the bots where
needed) and its toolkit, which is an optional extra.  See docs/integrations.md.
"""
