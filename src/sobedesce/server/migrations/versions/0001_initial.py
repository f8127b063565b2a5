"""The initial schema: players, tables and their decisions, finished matches and their seats.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(32), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("name_key", name="uq_players_name_key"),
        sa.UniqueConstraint("token_hash", name="uq_players_token_hash"),
    )
    op.create_table(
        "tables",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("rules", sa.String(16), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("invite_code", sa.String(32), nullable=True),
        sa.Column("seats", sa.Text(), nullable=False),
        sa.Column("settings", sa.Text(), nullable=False),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("created_by", sa.Integer(), sa.ForeignKey("players.id", name="fk_tables_created_by"), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.UniqueConstraint("invite_code", name="uq_tables_invite_code"),
    )
    op.create_index("ix_tables_status", "tables", ["status"])
    # The primary key leads with table_id, so it is also the index that reads a table's decisions in order.
    op.create_table(
        "decisions",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id", name="fk_decisions_table_id"), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seq", name="pk_decisions"),
    )
    op.create_table(
        "matches",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(16), nullable=False),
        sa.Column("rules", sa.String(16), nullable=False),
        sa.Column("record", sa.Text(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("with_bots", sa.Boolean(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "match_seats",
        sa.Column(
            "match_id", sa.Integer(), sa.ForeignKey("matches.id", name="fk_match_seats_match_id"), nullable=False
        ),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column(
            "player_id", sa.Integer(), sa.ForeignKey("players.id", name="fk_match_seats_player_id"), nullable=False
        ),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("riscos", sa.Float(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("match_id", "seat", name="pk_match_seats"),
    )
    op.create_index("ix_match_seats_player_id", "match_seats", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_match_seats_player_id", table_name="match_seats")
    op.drop_table("match_seats")
    op.drop_table("matches")
    op.drop_table("decisions")
    op.drop_index("ix_tables_status", table_name="tables")
    op.drop_table("tables")
    op.drop_table("players")
