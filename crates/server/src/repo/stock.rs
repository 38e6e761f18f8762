//! The inventory's history of stock changes made by jobs and orders (issue 50, points 3 and 5):
//! each change is one transaction that moves several entries' quantities, kept with its lines so
//! that it can be shown and undone once; and the orders of the shopping list, whose spools a
//! change adds when they are received.
//!
//! A line takes no entry below zero: what a job uses beyond what is on the shelf is not taken,
//! and the line keeps what was really taken, so an undo gives back exactly that.

use sea_orm::{
    ActiveModelTrait as _, ActiveValue::Set, ColumnTrait as _, ConnectionTrait, DatabaseTransaction,
    EntityTrait as _, PaginatorTrait as _, QueryFilter as _, QueryOrder as _, QuerySelect as _,
    prelude::Expr, sea_query::ExprTrait as _,
};
use time::OffsetDateTime;

use super::{RepoError, new_public_id, raised_version};
use crate::entity::{
    ids::{
        JobId, OrderId, OrderPublicId, StockChangeId, StockChangePublicId, StockLineId, StoredJobStatus,
        TeamId, ThreadId, UserId,
    },
    inventory_thread, job, stock_change, stock_change_line, thread_order,
};
use bobbin_core::{inventory::amount::MAX_HUNDREDTHS, job::JobStatus};

/// What a change the team does not have answers.
pub const NOT_FOUND: &str = "There is no such change in this team's history.";

/// What a change was for.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// Pieces of a job done.
    Job { id: JobId, pieces: u32 },
    /// Spools of an order received.
    Received,
}

/// One entry's part of a change.
#[derive(Debug, Clone)]
pub struct Line {
    pub thread_id: ThreadId,
    pub label: String,
    /// Hundredths of a spool.
    pub delta: i64,
    pub metres: f64,
}

/// Applies `lines` to the team's entries and keeps them as one change; answers its public id.
///
/// # Errors
///
/// A database error.
pub async fn apply(
    txn: &DatabaseTransaction,
    team_id: TeamId,
    user_id: UserId,
    kind: Kind,
    summary: &str,
    lines: Vec<Line>,
) -> Result<(StockChangeId, String), RepoError> {
    let now = OffsetDateTime::now_utc();
    let public_id = new_public_id();
    let (kind, job_id, pieces) = match kind {
        Kind::Job { id, pieces } => ("job", Some(id), Some(super::stored_as("pieces", pieces)?)),
        Kind::Received => ("received", None, None),
    };
    let change = stock_change::ActiveModel {
        id: Set(StockChangeId::new()),
        public_id: Set(public_id.clone()),
        team_id: Set(team_id),
        kind: Set(kind.to_owned()),
        job_id: Set(job_id),
        pieces: Set(pieces),
        summary: Set(summary.chars().take(300).collect()),
        created_by: Set(Some(user_id)),
        created_at: Set(now),
        undone_at: Set(None),
        undone_by: Set(None),
    }
    .insert(txn)
    .await?;
    for line in lines {
        let taken = move_quantity(txn, team_id, user_id, line.thread_id, line.delta).await?;
        // What was really taken, when the shelf held less than the line asked.
        #[expect(clippy::cast_precision_loss, reason = "hundredths of spools, far below 2^52")]
        let metres =
            if line.delta == 0 { line.metres } else { line.metres * taken as f64 / line.delta as f64 };
        stock_change_line::ActiveModel {
            id: Set(StockLineId::new()),
            change_id: Set(change.id),
            thread_id: Set(Some(line.thread_id)),
            label: Set(line.label.chars().take(300).collect()),
            delta: Set(taken),
            metres: Set(metres),
        }
        .insert(txn)
        .await?;
    }
    Ok((change.id, public_id))
}

/// Moves an entry's quantity by `delta` hundredths, kept within 0 and the largest amount;
/// answers the move made (0 for an entry gone).
async fn move_quantity(
    txn: &DatabaseTransaction,
    team_id: TeamId,
    user_id: UserId,
    thread_id: ThreadId,
    delta: i64,
) -> Result<i64, RepoError> {
    let Some(row) = inventory_thread::Entity::find_by_id(thread_id)
        .filter(inventory_thread::Column::TeamId.eq(team_id))
        .one(txn)
        .await?
    else {
        return Ok(0);
    };
    let after = (row.quantity + delta).clamp(0, MAX_HUNDREDTHS);
    let moved = after - row.quantity;
    if moved != 0 {
        // Written only if no one changed the count since it was read in this transaction.
        let changed = inventory_thread::Entity::update_many()
            .col_expr(
                inventory_thread::Column::Quantity,
                Expr::col(inventory_thread::Column::Quantity).add(moved),
            )
            .col_expr(inventory_thread::Column::Version, raised_version(inventory_thread::Column::Version))
            .col_expr(inventory_thread::Column::UpdatedBy, Expr::value(user_id))
            .col_expr(inventory_thread::Column::UpdatedAt, Expr::value(OffsetDateTime::now_utc()))
            .filter(inventory_thread::Column::Id.eq(thread_id))
            .filter(inventory_thread::Column::Quantity.eq(row.quantity))
            .exec(txn)
            .await?;
        if changed.rows_affected == 0 {
            return Err(RepoError::conflict(
                "stock_changed",
                "A thread's count changed while this was saved. Try again.",
            ));
        }
    }
    Ok(moved)
}

/// A change as the history shows it.
#[derive(Debug, Clone)]
pub struct Change {
    pub row: stock_change::Model,
    /// Each line, with its entry's public id while the inventory has it.
    pub lines: Vec<(stock_change_line::Model, Option<String>)>,
    pub job_public_id: Option<String>,
}

/// A page of the team's changes, newest first, and how many there are.
///
/// # Errors
///
/// A database error.
pub async fn page(
    db: &impl ConnectionTrait,
    team_id: TeamId,
    page: u64,
    per_page: u64,
) -> Result<(Vec<Change>, u64), RepoError> {
    let select = stock_change::Entity::find()
        .filter(stock_change::Column::TeamId.eq(team_id))
        .order_by_desc(stock_change::Column::CreatedAt);
    let paginator = select.paginate(db, per_page);
    let total = paginator.num_items().await?;
    let rows = paginator.fetch_page(page.saturating_sub(1)).await?;
    let mut changes = Vec::with_capacity(rows.len());
    for row in rows {
        changes.push(with_lines(db, row).await?);
    }
    Ok((changes, total))
}

/// One change of the team's history.
///
/// # Errors
///
/// 404; a database error.
pub async fn get(db: &impl ConnectionTrait, team_id: TeamId, public_id: &str) -> Result<Change, RepoError> {
    let row = stock_change::Entity::find()
        .filter(stock_change::Column::TeamId.eq(team_id))
        .filter(stock_change::Column::PublicId.eq(public_id))
        .one(db)
        .await?
        .ok_or_else(|| RepoError::NotFound(NOT_FOUND.to_owned()))?;
    with_lines(db, row).await
}

/// The public id of each of these entries that the inventory still has.
async fn public_ids(
    db: &impl ConnectionTrait,
    ids: Vec<ThreadId>,
) -> Result<std::collections::HashMap<ThreadId, String>, RepoError> {
    let pairs: Vec<(ThreadId, String)> = inventory_thread::Entity::find()
        .select_only()
        .columns([inventory_thread::Column::Id, inventory_thread::Column::PublicId])
        .filter(inventory_thread::Column::Id.is_in(ids))
        .into_tuple()
        .all(db)
        .await?;
    Ok(pairs.into_iter().collect())
}

async fn with_lines(db: &impl ConnectionTrait, row: stock_change::Model) -> Result<Change, RepoError> {
    let lines = stock_change_line::Entity::find()
        .filter(stock_change_line::Column::ChangeId.eq(row.id))
        .order_by_asc(stock_change_line::Column::Label)
        .all(db)
        .await?;
    let ids: Vec<ThreadId> = lines.iter().filter_map(|line| line.thread_id).collect();
    let public_ids = public_ids(db, ids).await?;
    let lines = lines
        .into_iter()
        .map(|line| {
            let public_id = line.thread_id.and_then(|id| public_ids.get(&id).cloned());
            (line, public_id)
        })
        .collect();
    let job_public_id = match row.job_id {
        Some(id) => job::Entity::find_by_id(id).one(db).await?.map(|job| job.public_id),
        None => None,
    };
    Ok(Change { row, lines, job_public_id })
}

/// Undoes a change: each entry gets back what the change moved (within 0 and the largest
/// amount), and a job's pieces are no longer counted as done (a done job is running again).
///
/// # Errors
///
/// 404; 409 `already_undone`; a database error.
pub async fn undo(
    txn: &DatabaseTransaction,
    team_id: TeamId,
    user_id: UserId,
    public_id: &StockChangePublicId,
) -> Result<Change, RepoError> {
    let row = stock_change::Entity::find()
        .filter(stock_change::Column::TeamId.eq(team_id))
        .filter(stock_change::Column::PublicId.eq(public_id.as_str()))
        .one(txn)
        .await?
        .ok_or_else(|| RepoError::NotFound(NOT_FOUND.to_owned()))?;
    // Marked first, and only if not yet undone: two undos at once cannot both give back.
    let marked = stock_change::Entity::update_many()
        .col_expr(stock_change::Column::UndoneAt, Expr::value(OffsetDateTime::now_utc()))
        .col_expr(stock_change::Column::UndoneBy, Expr::value(user_id))
        .filter(stock_change::Column::Id.eq(row.id))
        .filter(stock_change::Column::UndoneAt.is_null())
        .exec(txn)
        .await?;
    if marked.rows_affected == 0 {
        return Err(RepoError::conflict("already_undone", "This change was already undone."));
    }
    let lines = stock_change_line::Entity::find()
        .filter(stock_change_line::Column::ChangeId.eq(row.id))
        .all(txn)
        .await?;
    for line in &lines {
        if let Some(thread_id) = line.thread_id {
            move_quantity(txn, team_id, user_id, thread_id, -line.delta).await?;
        }
    }
    if let (Some(job_id), Some(pieces)) = (row.job_id, row.pieces)
        && let Some(stored) = job::Entity::find_by_id(job_id).one(txn).await?
    {
        let done = Ord::max(stored.pieces_done - pieces, 0);
        let status = if stored.status.0 == JobStatus::Done { JobStatus::Running } else { stored.status.0 };
        job::Entity::update_many()
            .col_expr(job::Column::PiecesDone, Expr::value(done))
            .col_expr(job::Column::Status, Expr::value(StoredJobStatus(status)))
            .col_expr(job::Column::UpdatedAt, Expr::value(OffsetDateTime::now_utc()))
            .col_expr(job::Column::Version, raised_version(job::Column::Version))
            .filter(job::Column::Id.eq(job_id))
            .exec(txn)
            .await?;
    }
    // Spools received and given back: the order is open again.
    thread_order::Entity::update_many()
        .col_expr(thread_order::Column::ReceivedAt, Expr::value(Option::<OffsetDateTime>::None))
        .col_expr(thread_order::Column::ChangeId, Expr::value(Option::<StockChangeId>::None))
        .filter(thread_order::Column::ChangeId.eq(row.id))
        .exec(txn)
        .await?;
    let row = stock_change::Entity::find_by_id(row.id)
        .one(txn)
        .await?
        .ok_or_else(|| RepoError::Broken(anyhow::anyhow!("stock change gone while undone")))?;
    with_lines(txn, row).await
}

/// An order of the shopping list, with its entry's public id.
#[derive(Debug, Clone)]
pub struct Order {
    pub row: thread_order::Model,
    pub thread_public_id: String,
}

/// The team's open orders (not yet received).
///
/// # Errors
///
/// A database error.
pub async fn open_orders(db: &impl ConnectionTrait, team_id: TeamId) -> Result<Vec<Order>, RepoError> {
    let rows = thread_order::Entity::find()
        .filter(thread_order::Column::TeamId.eq(team_id))
        .filter(thread_order::Column::ReceivedAt.is_null())
        .order_by_asc(thread_order::Column::CreatedAt)
        .all(db)
        .await?;
    let ids: Vec<ThreadId> = rows.iter().map(|row| row.thread_id).collect();
    let public_ids = public_ids(db, ids).await?;
    Ok(rows
        .into_iter()
        .filter_map(|row| Some(Order { thread_public_id: public_ids.get(&row.thread_id)?.clone(), row }))
        .collect())
}

/// Orders `spools` spools of an entry of the team.
///
/// # Errors
///
/// 422 `no_such_thread`, `too_many_orders`; a database error.
pub async fn order(
    txn: &DatabaseTransaction,
    team_id: TeamId,
    user_id: UserId,
    thread_public_id: &str,
    spools: u32,
) -> Result<Order, RepoError> {
    let thread = inventory_thread::Entity::find()
        .filter(inventory_thread::Column::TeamId.eq(team_id))
        .filter(inventory_thread::Column::PublicId.eq(thread_public_id))
        .one(txn)
        .await?
        .ok_or_else(|| {
            RepoError::refused("no_such_thread", "That thread is not in this team's inventory.")
        })?;
    let open = thread_order::Entity::find()
        .filter(thread_order::Column::TeamId.eq(team_id))
        .filter(thread_order::Column::ReceivedAt.is_null())
        .count(txn)
        .await?;
    if open >= MAX_OPEN_ORDERS {
        return Err(RepoError::refused(
            "too_many_orders",
            format!("A team has at most {MAX_OPEN_ORDERS} orders waiting: receive some first."),
        ));
    }
    let row = thread_order::ActiveModel {
        id: Set(OrderId::new()),
        public_id: Set(new_public_id()),
        team_id: Set(team_id),
        thread_id: Set(thread.id),
        spools: Set(super::stored_as("spools", spools)?),
        created_by: Set(Some(user_id)),
        created_at: Set(OffsetDateTime::now_utc()),
        received_at: Set(None),
        change_id: Set(None),
    }
    .insert(txn)
    .await?;
    Ok(Order { row, thread_public_id: thread.public_id })
}

/// Receives an open order: its spools join the entry's stock in a change of the history.
///
/// # Errors
///
/// 404; 409 `already_received`; a database error.
pub async fn receive(
    txn: &DatabaseTransaction,
    team_id: TeamId,
    user_id: UserId,
    public_id: &OrderPublicId,
) -> Result<String, RepoError> {
    let order = thread_order::Entity::find()
        .filter(thread_order::Column::TeamId.eq(team_id))
        .filter(thread_order::Column::PublicId.eq(public_id.as_str()))
        .one(txn)
        .await?
        .ok_or_else(|| RepoError::NotFound(ORDER_NOT_FOUND.to_owned()))?;
    if order.received_at.is_some() {
        return Err(RepoError::conflict("already_received", "This order was already received."));
    }
    let thread = inventory_thread::Entity::find_by_id(order.thread_id)
        .one(txn)
        .await?
        .ok_or_else(|| RepoError::NotFound(ORDER_NOT_FOUND.to_owned()))?;
    let label = super::jobs::shelf_thread(&thread)?;
    let line = Line {
        thread_id: thread.id,
        label: label.label.clone(),
        delta: i64::from(order.spools) * 100,
        metres: f64::from(order.spools) * f64::from(label.spool_m),
    };
    let summary = format!(
        "Received {} {} of {}",
        order.spools,
        if order.spools == 1 { "spool" } else { "spools" },
        label.label
    );
    let (change_id, change_public_id) =
        apply(txn, team_id, user_id, Kind::Received, &summary, vec![line]).await?;
    thread_order::Entity::update_many()
        .col_expr(thread_order::Column::ReceivedAt, Expr::value(OffsetDateTime::now_utc()))
        .col_expr(thread_order::Column::ChangeId, Expr::value(change_id))
        .filter(thread_order::Column::Id.eq(order.id))
        .exec(txn)
        .await?;
    Ok(change_public_id)
}

/// The most orders a team has waiting to be received.
pub const MAX_OPEN_ORDERS: u64 = 1_000;

/// What an order the team does not have answers.
pub const ORDER_NOT_FOUND: &str = "There is no such order in this team.";
