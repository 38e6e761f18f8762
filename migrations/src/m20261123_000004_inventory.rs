//! The team inventories: threads, machines, and each machine's maintenance log.
//!
//! Amounts (quantities, reorder points, costs) are whole hundredths, so they add and compare
//! exactly on both databases. `version` counts full edits: an edit names the version it started
//! from, and one made from an older version is refused instead of overwriting someone else's.
//! Dates without a time (purchase, maintenance) are `YYYY-MM-DD` text, which sorts and compares
//! the same on SQLite and PostgreSQL.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        create_threads(manager).await?;
        create_machines(manager).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            MachineMaintenance::Table.into_iden(),
            Machines::Table.into_iden(),
            InventoryThreads::Table.into_iden(),
        ] {
            manager.drop_table(Table::drop().table(table).to_owned()).await?;
        }
        Ok(())
    }
}

async fn create_threads(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(InventoryThreads::Table)
                .col(pk_uuid(InventoryThreads::Id))
                .col(string_len_uniq(InventoryThreads::PublicId, 32))
                .col(uuid(InventoryThreads::TeamId))
                // Which thread: `{line}\x1f{code key}` or `custom\x1f{name}` (lower-cased), unique
                // per team, so one thread is one entry.
                .col(string_len(InventoryThreads::Identity, 200))
                .col(string_len_null(InventoryThreads::LineId, 64))
                .col(string_len_null(InventoryThreads::Code, 32))
                .col(string_len_null(InventoryThreads::Name, 400))
                // `#RRGGBB`; for catalogue threads the catalogue's colour, kept for searching.
                .col(string_len(InventoryThreads::Colour, 7))
                .col(big_integer(InventoryThreads::Quantity))
                .col(integer_null(InventoryThreads::SpoolLengthM))
                .col(string_len(InventoryThreads::Location, 400))
                .col(big_integer_null(InventoryThreads::ReorderPoint))
                .col(big_integer_null(InventoryThreads::CostPerSpool))
                .col(text(InventoryThreads::Notes))
                .col(integer(InventoryThreads::Version))
                .col(uuid_null(InventoryThreads::UpdatedBy))
                .col(timestamp_with_time_zone(InventoryThreads::CreatedAt))
                .col(timestamp_with_time_zone(InventoryThreads::UpdatedAt))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_inventory_threads_team")
                        .from(InventoryThreads::Table, InventoryThreads::TeamId)
                        .to(Teams::Table, Teams::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_inventory_threads_updated_by")
                        .from(InventoryThreads::Table, InventoryThreads::UpdatedBy)
                        .to(Users::Table, Users::Id)
                        .on_delete(ForeignKeyAction::SetNull),
                )
                .to_owned(),
        )
        .await?;
    manager
        .create_index(
            Index::create()
                .name("idx_inventory_threads_identity")
                .table(InventoryThreads::Table)
                .col(InventoryThreads::TeamId)
                .col(InventoryThreads::Identity)
                .unique()
                .to_owned(),
        )
        .await
}

async fn create_machines(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(Machines::Table)
                .col(pk_uuid(Machines::Id))
                .col(string_len_uniq(Machines::PublicId, 32))
                .col(uuid(Machines::TeamId))
                .col(string_len(Machines::Name, 400))
                .col(string_len(Machines::Brand, 400))
                .col(string_len(Machines::Model, 400))
                .col(string_len(Machines::SerialNumber, 400))
                .col(integer(Machines::Heads))
                .col(integer(Machines::NeedlesPerHead))
                .col(integer_null(Machines::MaxSpm))
                .col(integer_null(Machines::TypicalSpm))
                // `[{ "name": "Cap", "width_mm": 130, "height_mm": 60 }, ...]` as JSON text.
                .col(text(Machines::Hoops))
                // active, maintenance or retired.
                .col(string_len(Machines::Status, 16))
                .col(string_len_null(Machines::PurchaseDate, 10))
                .col(text(Machines::Notes))
                .col(integer(Machines::Version))
                .col(uuid_null(Machines::UpdatedBy))
                .col(timestamp_with_time_zone(Machines::CreatedAt))
                .col(timestamp_with_time_zone(Machines::UpdatedAt))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_machines_team")
                        .from(Machines::Table, Machines::TeamId)
                        .to(Teams::Table, Teams::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_machines_updated_by")
                        .from(Machines::Table, Machines::UpdatedBy)
                        .to(Users::Table, Users::Id)
                        .on_delete(ForeignKeyAction::SetNull),
                )
                .to_owned(),
        )
        .await?;
    manager
        .create_index(
            Index::create().name("idx_machines_team").table(Machines::Table).col(Machines::TeamId).to_owned(),
        )
        .await?;
    manager
        .create_table(
            Table::create()
                .table(MachineMaintenance::Table)
                .col(pk_uuid(MachineMaintenance::Id))
                .col(string_len_uniq(MachineMaintenance::PublicId, 32))
                .col(uuid(MachineMaintenance::MachineId))
                .col(string_len(MachineMaintenance::PerformedOn, 10))
                // oiling, hook_cleaning, needle_change, service or other.
                .col(string_len(MachineMaintenance::Kind, 32))
                .col(text(MachineMaintenance::Notes))
                .col(big_integer_null(MachineMaintenance::StitchCounter))
                .col(uuid_null(MachineMaintenance::RecordedBy))
                .col(timestamp_with_time_zone(MachineMaintenance::CreatedAt))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_machine_maintenance_machine")
                        .from(MachineMaintenance::Table, MachineMaintenance::MachineId)
                        .to(Machines::Table, Machines::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_machine_maintenance_recorded_by")
                        .from(MachineMaintenance::Table, MachineMaintenance::RecordedBy)
                        .to(Users::Table, Users::Id)
                        .on_delete(ForeignKeyAction::SetNull),
                )
                .to_owned(),
        )
        .await?;
    manager
        .create_index(
            Index::create()
                .name("idx_machine_maintenance_machine")
                .table(MachineMaintenance::Table)
                .col(MachineMaintenance::MachineId)
                .to_owned(),
        )
        .await
}

#[derive(DeriveIden)]
enum Users {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum Teams {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum InventoryThreads {
    Table,
    Id,
    PublicId,
    TeamId,
    Identity,
    LineId,
    Code,
    Name,
    Colour,
    Quantity,
    SpoolLengthM,
    Location,
    ReorderPoint,
    CostPerSpool,
    Notes,
    Version,
    UpdatedBy,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum Machines {
    Table,
    Id,
    PublicId,
    TeamId,
    Name,
    Brand,
    Model,
    SerialNumber,
    Heads,
    NeedlesPerHead,
    MaxSpm,
    TypicalSpm,
    Hoops,
    Status,
    PurchaseDate,
    Notes,
    Version,
    UpdatedBy,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum MachineMaintenance {
    Table,
    Id,
    PublicId,
    MachineId,
    PerformedOn,
    Kind,
    Notes,
    StitchCounter,
    RecordedBy,
    CreatedAt,
}
