"""The Alembic environment of the store: migrates the connection that ``Store.migrate`` hands over.

Without one (the ``alembic`` command line) it connects to the config's ``sqlalchemy.url``.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine


def _running_under_alembic() -> bool:
    # pytest's --doctest-modules imports every module of the package; only Alembic installs the context.
    try:
        context.is_offline_mode()
    except NameError:
        return False
    return True


def _migrate(connection: Connection) -> None:
    from sobedesce.server.store import metadata

    context.configure(
        connection=connection,
        target_metadata=metadata,
        # SQLite alters tables by copying them; Alembic does that in batch mode.
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


def run() -> None:
    """Run the migrations Alembic asked for, online only: the store needs a live database."""
    if context.is_offline_mode():
        raise RuntimeError("the store's migrations run online only")
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _migrate(connection)
        return
    url = context.config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("no connection passed in and no sqlalchemy.url configured")
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            _migrate(connection)
    finally:
        engine.dispose()


if _running_under_alembic():
    run()
