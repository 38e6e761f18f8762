//! API integration tests: each test starts the real server on port 0 against a fresh database,
//! SQLite or PostgreSQL, and talks to it over HTTP.

mod account;
mod auth;
mod auth_helpers;
mod backup;
mod caching;
mod catalog;
mod database;
mod errors;
mod faults;
mod health;
mod heavy_requests;
mod helpers;
mod idempotency;
mod inputs;
mod invites;
mod jobs;
mod machines;
mod metrics;
mod oauth;
mod oauth_provider;
mod openapi;
mod operator;
mod overload;
#[path = "../common/postgres.rs"]
mod postgres;
mod proxies;
mod quote_documents;
mod quotes;
mod security;
mod settings;
mod smtp;
mod storage;
mod team_exports;
mod team_helpers;
mod teams;
mod threads;
mod versions;
mod web;
