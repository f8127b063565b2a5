"""The ``sobedesce`` command."""
