# Bobbin's two entry points (see README.md):
#   make run    build everything and serve http://127.0.0.1:3000 with SQLite in ./data/
#   make test   run every test: Rust (SQLite and PostgreSQL), an overload run, fuzzing of the
#               design readers and of the API, front-end unit tests, Playwright, the deployment
#               behind Caddy
# Both install what is missing: npm packages, the WebAssembly toolchain, Chromium, PostgreSQL,
# the SMTP server the tests send mail through (python3-aiosmtpd), Caddy and the API fuzzer
# (schemathesis, with pip into ~/.cache/bobbin/).
# Targets are files, so a second run rebuilds only what changed.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := run
MAKEFLAGS += --no-builtin-rules

CARGO ?= cargo
NPM ?= npm
BIN := target/release/bobbin
SHIPPED := target/dist/bobbin
WASM := crates/wasm/pkg/bobbin_wasm_bg.wasm
NODE_MODULES := node_modules/.package-lock.json
DIST := app-react/dist/index.html

WASM_SOURCES := $(shell find crates/core crates/wasm -name pkg -prune -o -type f -print) \
	Cargo.toml Cargo.lock scripts/build-wasm.sh
APP_SOURCES := $(shell find app-react/src app-react/service-worker app-react/icons style -type f) \
	app-react/index.html app-react/build.mjs app-react/tsconfig.json

.PHONY: run dist build api-types test lint test-rust test-load test-fuzz test-api-fuzz test-web test-e2e test-deploy clean

run: dist
	BOBBIN_ENV=$${BOBBIN_ENV:-development} $(SHIPPED) serve

# The server as it ships (Cargo.toml's `dist` profile: link-time optimisation), which `make run`
# serves, with the benchmark's bare server (crates/server/examples) built the same way, so the two
# compare fairly (scripts/bench-http.sh).
dist: $(DIST)
	$(CARGO) build --profile dist --locked -p bobbin-server --bin bobbin --example bare_axum

# The release build, which the tests run: the same code without link-time optimisation, which
# would add a second build of every dependency to `make test`. With the benchmark's bare server:
# an example, like a test, builds on the server's dev-dependencies too, and their features then
# reach the dependencies both share (tokio's `process`, say). The server built so is the one the
# tests build on, so `make test` compiles only the tests instead of the whole dependency tree a
# second time.
build: $(DIST)
	$(CARGO) build --release --locked -p bobbin-server --bin bobbin --example bare_axum

$(NODE_MODULES): package.json package-lock.json app-react/package.json end2end/package.json tools/api-types/package.json
	$(NPM) ci
	touch $@

$(WASM): $(WASM_SOURCES) $(NODE_MODULES)
	scripts/build-wasm.sh

$(DIST): $(WASM) $(NODE_MODULES) $(APP_SOURCES)
	$(NPM) run build -w app-react

# The browser's API types (app-react/src/lib/api-schema.d.ts) from the server's OpenAPI
# document; `make lint` fails while they are stale (scripts/api-types.sh).
api-types: build
	scripts/api-types.sh

test: build lint test-rust test-load test-fuzz test-api-fuzz test-web test-e2e test-deploy

# The Rust lints, then the TypeScript ones: the type check, ESLint (eslint.config.js: type-aware
# rules, React's hook rules, no imports across the app's features) and Prettier's check of the
# TypeScript, JavaScript and CSS (.prettierrc.json; `npm run format` applies it).
lint: build
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --release --locked --workspace --all-targets -- -D warnings
	scripts/api-types.sh --check
	$(NPM) run typecheck -w app-react -w end2end
	$(NPM) run lint
	$(NPM) run format:check
	@# The repository stands alone: nothing may read the folders beside a checkout.
	@if git grep -nE '\.\./shared|/work/shared' -- ':!Makefile'; then \
		echo "make lint: the lines above read outside the repository" >&2; exit 1; fi

# The server's tests (with the migrations', which it depends on) and the core's in two runs, not
# one `--workspace`: each run's dependency features are then those of what it tests, and the
# first run's are those of `make build`, whose compiled dependencies it reuses.
test-rust: build
	scripts/ensure-smtp-sink.sh
	scripts/ensure-poppler.sh
	scripts/with-postgres.sh $(CARGO) test --release --locked -p bobbin-server -p bobbin-migrations
	$(CARGO) test --release --locked -p bobbin-core -p bobbin-wasm

# 1,000 readers of a 2,000-entry thread list and a +1 every 0.1 s against the release binary for
# LOAD_SECONDS (10) after the start and the import; fails on an answer other than 200 or 503, a
# refused write, or an acknowledged +1 that is missing (scripts/load-inventory.mjs).
LOAD_SECONDS ?= 10
test-load: build
	LOAD_SECONDS=$(LOAD_SECONDS) CHECK=1 node scripts/load-inventory.mjs

# Each design-file reader fuzzed for FUZZ_SECONDS (15) from the sample designs; needs nightly Rust
# and installs cargo-fuzz the first time (scripts/fuzz-designs.sh).
test-fuzz:
	scripts/fuzz-designs.sh

# Every operation of /api/v2/openapi.json fuzzed for API_FUZZ_SECONDS (100) against the release
# binary, signed in, on records that exist; fails on a 5xx or an answer the document does not
# describe. Installs schemathesis into ~/.cache/bobbin/ the first time (scripts/api-fuzz.sh).
test-api-fuzz: build
	scripts/api-fuzz.sh

test-web: $(NODE_MODULES) $(WASM)
	$(NPM) test -w app-react

test-e2e: build
	scripts/ensure-chromium.sh
	scripts/ensure-poppler.sh
	scripts/with-postgres.sh $(NPM) test -w end2end

# docs/deploy.md's files, tried: deploy/bobbin.service through systemd-analyze, and the release
# binary behind Debian's Caddy (installed the first time) with deploy/Caddyfile and
# deploy/bobbin.env.example on loopback: HTTPS, per-client sign-in limits, a Secure auth cookie
# in Chromium (scripts/test-deploy.sh).
test-deploy: build
	timeout 240 scripts/test-deploy.sh

clean:
	rm -rf target app-react/dist crates/wasm/pkg node_modules end2end/.tmp
