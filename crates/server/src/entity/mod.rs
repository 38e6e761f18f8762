//! sea-orm models of the tables in `migrations/`. Relations are left out where queries join by
//! hand; each model says what its rows are in the migration that creates its table.

pub mod flow_state;
pub mod identity;
pub mod ids;
pub mod inventory_thread;
pub mod job;
pub mod machine;
pub mod machine_maintenance;
pub mod mail_outbox;
pub mod member_setting;
pub mod mfa_challenge;
pub mod mfa_factor;
pub mod one_time_token;
pub mod quote;
pub mod quote_event;
pub mod quote_link;
pub mod quote_number;
pub mod quote_revision;
pub mod refresh_token;
pub mod session;
pub mod signing_key;
pub mod stock_change;
pub mod stock_change_line;
pub mod storage_blob;
pub mod storage_object;
pub mod team;
pub mod team_invite;
pub mod team_member;
pub mod team_setting;
pub mod thread_order;
pub mod user;
pub mod write_key;
