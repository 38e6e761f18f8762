use std::sync::Arc;

use sea_orm::DatabaseConnection;

use crate::{auth::AuthService, config::Environment};

/// What every handler can reach. Nothing here may hold per-user state that only this process
/// knows: several server instances can run behind one load balancer against PostgreSQL.
#[derive(Debug, Clone)]
pub struct AppState {
    pub db: DatabaseConnection,
    pub environment: Environment,
    pub auth: Arc<AuthService>,
    /// Whether the client address comes from `X-Forwarded-For` (behind a trusted proxy).
    pub trust_forwarded_for: bool,
}
