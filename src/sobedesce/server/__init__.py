"""The online table: ASGI app, tables, store."""
