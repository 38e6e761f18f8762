//! Jobs (issue 50): a design of the library run a number of times on a machine, its colour plan
//! mapping the design's threads to the team's inventory, and the stock it takes.
//!
//! - `jobs`: the job, with a copy of the design's figures and colour blocks taken when it was
//!   made (`design`, JSON), so its plan and run sheet stay whole when the file is replaced or
//!   removed; `plan` is JSON, one inventory entry's public id (or null) per thread of the design.
//! - `stock_changes` and `stock_change_lines`: the inventory's history of changes made by jobs
//!   and orders, each line an entry's change in hundredths of a spool; a change can be undone once.
//! - `thread_orders`: spools of an entry ordered for the shopping list, until received.
//!
//! Designs stored before the colour blocks carried the length their stitches lay (`sewn_mm`,
//! which the thread-usage model counts from) are read again from their bytes.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        read_designs_again(manager).await?;
        create_jobs(manager).await?;
        create_stock_changes(manager).await?;
        create_thread_orders(manager).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            ThreadOrders::Table.into_iden(),
            StockChangeLines::Table.into_iden(),
            StockChanges::Table.into_iden(),
            Jobs::Table.into_iden(),
        ] {
            manager.drop_table(Table::drop().table(table).to_owned()).await?;
        }
        Ok(())
    }
}

async fn create_jobs(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(Jobs::Table)
                .col(pk_uuid(Jobs::Id))
                .col(string_len_uniq(Jobs::PublicId, 32))
                .col(uuid(Jobs::TeamId))
                .col(string_len(Jobs::Name, 200))
                .col(string_len(Jobs::Customer, 200))
                // The library file it was made from; no foreign key: the job keeps its copy.
                .col(uuid_null(Jobs::DesignId))
                .col(text(Jobs::Design))
                .col(integer(Jobs::Quantity))
                .col(integer(Jobs::PiecesDone).default(0))
                .col(uuid_null(Jobs::MachineId))
                // YYYY-MM-DD.
                .col(string_len_null(Jobs::DueDate, 10))
                .col(string_len(Jobs::Status, 16))
                .col(text(Jobs::Plan))
                .col(text(Jobs::Notes))
                .col(uuid_null(Jobs::QuoteId))
                .col(integer(Jobs::Version))
                .col(uuid_null(Jobs::CreatedBy))
                .col(timestamp_with_time_zone(Jobs::CreatedAt))
                .col(timestamp_with_time_zone(Jobs::UpdatedAt))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_jobs_team")
                        .from(Jobs::Table, Jobs::TeamId)
                        .to(Teams::Table, Teams::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_jobs_machine")
                        .from(Jobs::Table, Jobs::MachineId)
                        .to(Machines::Table, Machines::Id)
                        .on_delete(ForeignKeyAction::SetNull),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_jobs_created_by")
                        .from(Jobs::Table, Jobs::CreatedBy)
                        .to(Users::Table, Users::Id)
                        .on_delete(ForeignKeyAction::SetNull),
                )
                .to_owned(),
        )
        .await?;
    manager
        .create_index(
            Index::create()
                .name("idx_jobs_team_status")
                .table(Jobs::Table)
                .col(Jobs::TeamId)
                .col(Jobs::Status)
                .to_owned(),
        )
        .await?;
    Ok(())
}

async fn create_stock_changes(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(StockChanges::Table)
                .col(pk_uuid(StockChanges::Id))
                .col(string_len_uniq(StockChanges::PublicId, 32))
                .col(uuid(StockChanges::TeamId))
                // `job` or `received`.
                .col(string_len(StockChanges::Kind, 16))
                .col(uuid_null(StockChanges::JobId))
                .col(integer_null(StockChanges::Pieces))
                // What it was, in words: "Café Rosa polos: 20 pieces".
                .col(string_len(StockChanges::Summary, 300))
                .col(uuid_null(StockChanges::CreatedBy))
                .col(timestamp_with_time_zone(StockChanges::CreatedAt))
                .col(timestamp_with_time_zone_null(StockChanges::UndoneAt))
                .col(uuid_null(StockChanges::UndoneBy))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_stock_changes_team")
                        .from(StockChanges::Table, StockChanges::TeamId)
                        .to(Teams::Table, Teams::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_stock_changes_job")
                        .from(StockChanges::Table, StockChanges::JobId)
                        .to(Jobs::Table, Jobs::Id)
                        .on_delete(ForeignKeyAction::SetNull),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_stock_changes_created_by")
                        .from(StockChanges::Table, StockChanges::CreatedBy)
                        .to(Users::Table, Users::Id)
                        .on_delete(ForeignKeyAction::SetNull),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_stock_changes_undone_by")
                        .from(StockChanges::Table, StockChanges::UndoneBy)
                        .to(Users::Table, Users::Id)
                        .on_delete(ForeignKeyAction::SetNull),
                )
                .to_owned(),
        )
        .await?;
    manager
        .create_index(
            Index::create()
                .name("idx_stock_changes_team_created")
                .table(StockChanges::Table)
                .col(StockChanges::TeamId)
                .col(StockChanges::CreatedAt)
                .to_owned(),
        )
        .await?;
    manager
        .create_table(
            Table::create()
                .table(StockChangeLines::Table)
                .col(pk_uuid(StockChangeLines::Id))
                .col(uuid(StockChangeLines::ChangeId))
                // The entry; null once it is removed from the inventory (the label stays).
                .col(uuid_null(StockChangeLines::ThreadId))
                .col(string_len(StockChangeLines::Label, 300))
                // Hundredths of a spool: negative for thread used, positive for received.
                .col(big_integer(StockChangeLines::Delta))
                .col(double(StockChangeLines::Metres))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_stock_change_lines_change")
                        .from(StockChangeLines::Table, StockChangeLines::ChangeId)
                        .to(StockChanges::Table, StockChanges::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_stock_change_lines_thread")
                        .from(StockChangeLines::Table, StockChangeLines::ThreadId)
                        .to(InventoryThreads::Table, InventoryThreads::Id)
                        .on_delete(ForeignKeyAction::SetNull),
                )
                .to_owned(),
        )
        .await?;
    manager
        .create_index(
            Index::create()
                .name("idx_stock_change_lines_change")
                .table(StockChangeLines::Table)
                .col(StockChangeLines::ChangeId)
                .to_owned(),
        )
        .await?;
    Ok(())
}

async fn create_thread_orders(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(ThreadOrders::Table)
                .col(pk_uuid(ThreadOrders::Id))
                .col(string_len_uniq(ThreadOrders::PublicId, 32))
                .col(uuid(ThreadOrders::TeamId))
                .col(uuid(ThreadOrders::ThreadId))
                .col(integer(ThreadOrders::Spools))
                .col(uuid_null(ThreadOrders::CreatedBy))
                .col(timestamp_with_time_zone(ThreadOrders::CreatedAt))
                // Null while ordered; the stock change that added the spools once received.
                .col(timestamp_with_time_zone_null(ThreadOrders::ReceivedAt))
                .col(uuid_null(ThreadOrders::ChangeId))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_thread_orders_team")
                        .from(ThreadOrders::Table, ThreadOrders::TeamId)
                        .to(Teams::Table, Teams::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_thread_orders_thread")
                        .from(ThreadOrders::Table, ThreadOrders::ThreadId)
                        .to(InventoryThreads::Table, InventoryThreads::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_thread_orders_created_by")
                        .from(ThreadOrders::Table, ThreadOrders::CreatedBy)
                        .to(Users::Table, Users::Id)
                        .on_delete(ForeignKeyAction::SetNull),
                )
                .to_owned(),
        )
        .await?;
    manager
        .create_index(
            Index::create()
                .name("idx_thread_orders_team")
                .table(ThreadOrders::Table)
                .col(ThreadOrders::TeamId)
                .to_owned(),
        )
        .await
}

/// Reads every readable design again from its bytes, for the colour blocks as the core gives
/// them now (with `sewn_mm`); the summary and preview are unchanged. One file at a time, so a
/// large library never sits in memory at once.
async fn read_designs_again(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    let db = manager.get_connection();
    let designs = Query::select()
        .column(StorageObjects::Id)
        .from(StorageObjects::Table)
        .and_where(Expr::col(StorageObjects::Preview).is_not_null())
        .to_owned();
    let mut ids: Vec<sea_orm::prelude::Uuid> = Vec::new();
    for row in db.query_all(&designs).await? {
        ids.push(row.try_get("", "id")?);
    }
    for id in ids {
        let one = Query::select()
            .expr_as(Expr::col((StorageObjects::Table, StorageObjects::Name)), "name")
            .expr_as(Expr::col((StorageObjects::Table, StorageObjects::Design)), "design")
            .expr_as(Expr::col((StorageBlobs::Table, StorageBlobs::Bytes)), "bytes")
            .from(StorageObjects::Table)
            .inner_join(
                StorageBlobs::Table,
                Expr::col((StorageBlobs::Table, StorageBlobs::TeamId))
                    .equals((StorageObjects::Table, StorageObjects::TeamId))
                    .and(
                        Expr::col((StorageBlobs::Table, StorageBlobs::Sha256))
                            .equals((StorageObjects::Table, StorageObjects::Sha256)),
                    ),
            )
            .and_where(Expr::col((StorageObjects::Table, StorageObjects::Id)).eq(id))
            .to_owned();
        let Some(row) = db.query_one(&one).await? else { continue };
        let (name, json, bytes): (String, String, Vec<u8>) =
            (row.try_get("", "name")?, row.try_get("", "design")?, row.try_get("", "bytes")?);
        let (Ok(mut design), Ok(read)) = (
            serde_json::from_str::<serde_json::Value>(&json),
            bobbin_core::design::read(&bytes, Some(&name)),
        ) else {
            continue;
        };
        let Some(fields) = design.as_object_mut() else { continue };
        fields.insert("blocks".to_owned(), serde_json::json!(read.blocks()));
        let update = Query::update()
            .table(StorageObjects::Table)
            .value(StorageObjects::Design, design.to_string())
            .and_where(Expr::col(StorageObjects::Id).eq(id))
            .to_owned();
        db.execute(&update).await?;
    }
    Ok(())
}

#[derive(DeriveIden)]
enum Teams {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum Users {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum Machines {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum InventoryThreads {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum StorageObjects {
    Table,
    Id,
    TeamId,
    Name,
    Sha256,
    Design,
    Preview,
}

#[derive(DeriveIden)]
enum StorageBlobs {
    Table,
    TeamId,
    Sha256,
    Bytes,
}

#[derive(DeriveIden)]
enum Jobs {
    Table,
    Id,
    PublicId,
    TeamId,
    Name,
    Customer,
    DesignId,
    Design,
    Quantity,
    PiecesDone,
    MachineId,
    DueDate,
    Status,
    Plan,
    Notes,
    QuoteId,
    Version,
    CreatedBy,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum StockChanges {
    Table,
    Id,
    PublicId,
    TeamId,
    Kind,
    JobId,
    Pieces,
    Summary,
    CreatedBy,
    CreatedAt,
    UndoneAt,
    UndoneBy,
}

#[derive(DeriveIden)]
enum StockChangeLines {
    Table,
    Id,
    ChangeId,
    ThreadId,
    Label,
    Delta,
    Metres,
}

#[derive(DeriveIden)]
enum ThreadOrders {
    Table,
    Id,
    PublicId,
    TeamId,
    ThreadId,
    Spools,
    CreatedBy,
    CreatedAt,
    ReceivedAt,
    ChangeId,
}
