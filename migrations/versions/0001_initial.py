"""initial tables: player, game_table, seat, action_log, chat_message

Revision ID: 0001
Revises:
Create Date: 2026-11-29

Written by autogenerate, then edited to plain SQLAlchemy types (no sqlmodel import).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "game_table",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=32), nullable=False),
        sa.Column("mode", sa.String(length=16), nullable=False),
        sa.Column("lives", sa.Integer(), nullable=False),
        sa.Column("rules_json", sa.Text(), nullable=False),
        sa.Column("creator_id", sa.String(length=32), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("match_json", sa.Text(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_move_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("turn_started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rematch_json", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("game_table", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_game_table_code"), ["code"], unique=True)
        batch_op.create_index(batch_op.f("ix_game_table_status"), ["status"], unique=False)

    op.create_table(
        "player",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("secret_hash", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=24), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "action_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("actor", sa.String(length=64), nullable=False),
        sa.Column("action_json", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["game_table.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("action_log", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_action_log_table_id"), ["table_id"], unique=False)

    op.create_table(
        "chat_message",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=24), nullable=False),
        sa.Column("text", sa.String(length=200), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["game_table.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("chat_message", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_chat_message_table_id"), ["table_id"], unique=False)

    op.create_table(
        "seat",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=True),
        sa.Column("bot", sa.String(length=16), nullable=True),
        sa.Column("name", sa.String(length=24), nullable=False),
        sa.Column("left", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["game_table.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("table_id", "seat", name="uq_seat_table_seat"),
    )
    with op.batch_alter_table("seat", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_seat_player_id"), ["player_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_seat_table_id"), ["table_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("seat", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_seat_table_id"))
        batch_op.drop_index(batch_op.f("ix_seat_player_id"))

    op.drop_table("seat")
    with op.batch_alter_table("chat_message", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_chat_message_table_id"))

    op.drop_table("chat_message")
    with op.batch_alter_table("action_log", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_action_log_table_id"))

    op.drop_table("action_log")
    op.drop_table("player")
    with op.batch_alter_table("game_table", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_game_table_status"))
        batch_op.drop_index(batch_op.f("ix_game_table_code"))

    op.drop_table("game_table")
