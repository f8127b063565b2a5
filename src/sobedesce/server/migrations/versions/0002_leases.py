"""Table leases for several server processes: who owns a table, until when, and its epoch.

A process applies a table's decisions only while it holds the table's lease; ``epoch`` grows
by one with every new holder and is copied to ``tables.lease_epoch`` when the lease changes
hands, so a decision written by a process that lost its lease (a fencing token) is refused.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "table_leases",
        sa.Column("table_id", sa.String(16), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("epoch", sa.BigInteger(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_table_leases_owner", "table_leases", ["owner"])
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("lease_epoch", sa.BigInteger(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("lease_epoch")
    op.drop_index("ix_table_leases_owner", table_name="table_leases")
    op.drop_table("table_leases")
