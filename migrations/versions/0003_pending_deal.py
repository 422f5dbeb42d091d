"""pending_deal: the committed secret seed of each table's next deal (verifiable deals)

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "pending_deal",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seed_hex", sa.String(length=64), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("contributions_json", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["game_table.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("pending_deal", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_pending_deal_table_id"), ["table_id"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("pending_deal", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_pending_deal_table_id"))
    op.drop_table("pending_deal")
