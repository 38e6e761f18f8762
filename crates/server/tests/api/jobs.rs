//! Jobs (issue 50): the plan Bobbin proposes and a person changes, the needles, two jobs
//! competing for one thread's reservation, pieces done taking thread from stock and an undo
//! giving it back, and who may do what.
//!
//! The design is `testdata/designs/star-v7.pes`: a red block (#ED171F, 1,456 stitches) then a
//! white one (#F0F0F0, 1,094 stitches), which the default usage model puts at 8.17 m and 4.81 m of
//! top thread a piece.

use reqwest::StatusCode;
use rstest::rstest;
use serde_json::{Value, json};

use crate::{
    helpers::{Backend, TestApp, spawn_app},
    storage::sample,
    team_helpers::Person,
};

/// Top thread for one star, per block, by the default model (2.5 mm take-up).
const RED_M: f64 = 8.17;
const WHITE_M: f64 = 4.81;

struct Shop {
    app: TestApp,
    owner: Person,
    team: String,
    star: String,
}

impl Shop {
    async fn open(backend: Backend) -> Self {
        let app = spawn_app(backend).await;
        let owner = app.person("owner").await;
        let team = app.team(&owner, "Stitch Shop").await;
        let uploaded = app.upload(&owner, &team, "star.pes", sample("star-v7.pes")).await;
        let star = uploaded.assert_status(StatusCode::OK)["Id"].as_str().unwrap().to_owned();
        Self { app, owner, team, star }
    }

    /// A custom thread: its public id.
    async fn thread(&self, name: &str, colour: &str, spools: f64) -> String {
        let made = self
            .app
            .api_post(
                &self.owner,
                &format!("/teams/{}/threads", self.team),
                json!({ "name": name, "colour": colour, "quantity": spools, "spool_length_m": 1000 }),
            )
            .await;
        made.assert_status(StatusCode::CREATED)["thread"]["id"].as_str().unwrap().to_owned()
    }

    async fn spools(&self, thread: &str) -> f64 {
        let got = self.app.api_get(&self.owner, &format!("/teams/{}/threads/{thread}", self.team)).await;
        got.assert_status(StatusCode::OK)["thread"]["quantity"].as_f64().unwrap()
    }

    async fn job(&self, quantity: u32, extra: Value) -> Value {
        let mut body = json!({ "name": "Café Rosa polos", "customer": "Café Rosa", "design_id": self.star, "quantity": quantity });
        body.as_object_mut().unwrap().extend(extra.as_object().cloned().unwrap_or_default());
        let made = self.app.api_post(&self.owner, &format!("/teams/{}/jobs", self.team), body).await;
        made.assert_status(StatusCode::CREATED)["job"].clone()
    }

    async fn patch(&self, job: &Value, body: Value) -> crate::auth_helpers::Answer {
        let mut body = body;
        body["version"] = job["version"].clone();
        self.app
            .api_patch(
                &self.owner,
                &format!("/teams/{}/jobs/{}", self.team, job["id"].as_str().unwrap()),
                body,
            )
            .await
    }

    async fn get(&self, job: &Value) -> Value {
        let got = self
            .app
            .api_get(&self.owner, &format!("/teams/{}/jobs/{}", self.team, job["id"].as_str().unwrap()))
            .await;
        got.assert_status(StatusCode::OK)["job"].clone()
    }
}

fn near(actual: &Value, expected: f64) -> bool {
    actual.as_f64().is_some_and(|actual| (actual - expected).abs() < 0.05)
}

#[rstest]
#[tokio::test]
async fn bobbin_proposes_the_closest_thread_with_enough_and_a_person_changes_it(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let shop = Shop::open(backend).await;
    let exact_but_short = shop.thread("Red (last bit)", "#ED171F", 0.01).await;
    let near_with_plenty = shop.thread("Red", "#E8161E", 2.0).await;
    let white = shop.thread("White", "#F0F0F0", 1.0).await;
    shop.thread("Navy", "#1E2A5A", 5.0).await;
    let machine = shop
        .app
        .api_post(
            &shop.owner,
            &format!("/teams/{}/machines", shop.team),
            json!({ "name": "Single", "heads": 1, "needles_per_head": 1 }),
        )
        .await;
    let machine = machine.assert_status(StatusCode::CREATED)["machine"]["id"].as_str().unwrap().to_owned();

    let job = shop.job(10, json!({ "machine_id": machine, "due_date": "2026-12-20" })).await;
    assert_eq!(job["status"], "draft");
    let slots = job["slots"].as_array().unwrap();
    assert_eq!(slots.len(), 2, "{job}");
    assert_eq!((slots[0]["colour"].as_str(), slots[0]["blocks"].clone()), (Some("#ED171F"), json!([1])));
    assert!(near(&slots[0]["top_m"], RED_M) && near(&slots[1]["top_m"], WHITE_M), "{slots:?}");
    // 10 stars need 8.17 x 10 + 10% = 89.9 m of red: the exact red holds 10 m, so the near one.
    assert_eq!(slots[0]["thread"]["id"], near_with_plenty.as_str());
    assert_eq!(slots[0]["proposal"]["label"], "close");
    assert_eq!(slots[1]["thread"]["id"], white.as_str());
    assert_eq!(job["verdict"], "enough");
    assert!(near(&job["job_top_m"], (RED_M + WHITE_M) * 10.0 * 1.1), "{}", job["job_top_m"]);
    // One needle for two threads: the white goes on in place of the red before block 2.
    assert_eq!(job["too_many_threads"], true);
    assert_eq!(job["rethreads"], json!([{ "before_block": 2, "needle": 1, "replaces_slot": 0, "slot": 1 }]));
    assert_eq!(job["due_date"], "2026-12-20");

    // The person takes the exact red: short by 79.9 m, one spool to buy.
    let changed = shop.patch(&job, json!({ "plan": [exact_but_short, white] })).await;
    let changed = changed.assert_status(StatusCode::OK)["job"].clone();
    assert_eq!(changed["verdict"], "short");
    let red = changed["stock"]
        .as_array()
        .unwrap()
        .iter()
        .find(|line| line["thread"]["id"] == exact_but_short.as_str())
        .unwrap();
    assert_eq!((red["verdict"].as_str(), red["spools"].as_u64()), (Some("short"), Some(1)));
    assert!(near(&red["short_m"], RED_M * 11.0 - 10.0), "{red}");
    // An edit from the version before is refused, not written over this one.
    shop.patch(&job, json!({ "name": "Old name" }))
        .await
        .assert_api_error(StatusCode::CONFLICT, "edit_conflict");
    // A thread left to buy: the job is not planned.
    let left = shop.patch(&changed, json!({ "plan": [null, white] })).await;
    let left = left.assert_status(StatusCode::OK)["job"].clone();
    assert_eq!(
        (left["verdict"].as_str(), left["slots"][0]["thread"].clone()),
        (Some("unplanned"), Value::Null)
    );
    // Asking for the proposal again.
    let proposed = shop.patch(&left, json!({ "propose": true })).await;
    assert_eq!(
        proposed.assert_status(StatusCode::OK)["job"]["slots"][0]["thread"]["id"],
        near_with_plenty.as_str()
    );

    // A plan of the wrong length, or naming a thread the team does not have, is refused.
    let current = shop.get(&job).await;
    shop.patch(&current, json!({ "plan": [white] }))
        .await
        .assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
    let other = shop.app.team(&shop.owner, "Second Shop").await;
    let foreign = shop
        .app
        .api_post(
            &shop.owner,
            &format!("/teams/{other}/threads"),
            json!({ "name": "Theirs", "colour": "#ED171F", "quantity": 9 }),
        )
        .await;
    let foreign = foreign.assert_status(StatusCode::CREATED)["thread"]["id"].as_str().unwrap().to_owned();
    let refused = shop.patch(&current, json!({ "plan": [foreign, white] })).await;
    refused.assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
    assert_eq!(refused.body["fields"][0]["field"], "plan[0]", "{refused:?}");
}

#[rstest]
#[tokio::test]
async fn a_dst_design_has_a_thread_per_block_for_the_person_to_pick(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let shop = Shop::open(backend).await;
    let red = shop.thread("Red", "#ED171F", 1.0).await;
    let uploaded = shop.app.upload(&shop.owner, &shop.team, "star.dst", sample("star.dst")).await;
    let dst = uploaded.assert_status(StatusCode::OK)["Id"].as_str().unwrap().to_owned();
    let made = shop
        .app
        .api_post(
            &shop.owner,
            &format!("/teams/{}/jobs", shop.team),
            json!({ "name": "Caps", "design_id": dst, "quantity": 5 }),
        )
        .await;
    let job = made.assert_status(StatusCode::CREATED)["job"].clone();
    let slots = job["slots"].as_array().unwrap();
    assert_eq!(slots.len(), 2);
    assert!(
        slots
            .iter()
            .all(|slot| slot["colour"].is_null() && slot["thread"].is_null() && slot["proposal"].is_null())
    );
    assert_eq!(job["verdict"], "unplanned");
    // The same thread for both blocks: one spool, one needle.
    let picked = shop.patch(&job, json!({ "plan": [red, red] })).await;
    let picked = picked.assert_status(StatusCode::OK)["job"].clone();
    assert_eq!(picked["verdict"], "enough");
    assert_eq!(picked["stock"].as_array().unwrap().len(), 1);
    assert!(near(&picked["stock"][0]["need_m"], (RED_M + WHITE_M) * 5.0 * 1.1), "{}", picked["stock"][0]);
}

#[rstest]
#[tokio::test]
async fn two_jobs_compete_for_one_threads_reservation(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let shop = Shop::open(backend).await;
    let red = shop.thread("Red", "#ED171F", 1.0).await;
    shop.thread("White", "#F0F0F0", 10.0).await;
    // 60 stars take 8.17 x 60 + 10% = 539 m of red; the shelf holds 1,000 m.
    let first = shop.job(60, json!({})).await;
    let second = shop.job(60, json!({ "name": "Second order" })).await;
    assert_eq!(second["verdict"], "enough", "a draft holds nothing");

    let ready = shop.patch(&first, json!({ "status": "ready" })).await;
    let ready = ready.assert_status(StatusCode::OK)["job"].clone();
    let second = shop.get(&second).await;
    let line = second["stock"]
        .as_array()
        .unwrap()
        .iter()
        .find(|line| line["thread"]["id"] == red.as_str())
        .unwrap()
        .clone();
    assert!(near(&line["reserved_m"], RED_M * 66.0), "{line}");
    assert_eq!((second["verdict"].as_str(), line["spools"].as_u64()), (Some("short"), Some(1)));
    assert!(near(&line["short_m"], RED_M * 66.0 * 2.0 - 1000.0), "{line}");
    // The list says what is short for which job.
    let listed = shop.app.api_get(&shop.owner, &format!("/teams/{}/jobs?status=draft", shop.team)).await;
    let listed = listed.assert_status(StatusCode::OK)["jobs"].clone();
    assert_eq!(listed.as_array().unwrap().len(), 1);
    assert_eq!(listed[0]["short"][0]["thread_id"], red.as_str());
    shop.app
        .api_get(&shop.owner, &format!("/teams/{}/jobs?status=finished", shop.team))
        .await
        .assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");

    // Cancelling the first releases its thread; a cancelled job cannot be done.
    let cancelled = shop.patch(&ready, json!({ "status": "cancelled" })).await;
    let cancelled = cancelled.assert_status(StatusCode::OK)["job"].clone();
    assert_eq!(shop.get(&second).await["verdict"], "enough");
    shop.patch(&cancelled, json!({ "status": "done" }))
        .await
        .assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "bad_status");
}

#[rstest]
#[tokio::test]
async fn pieces_done_take_thread_from_stock_and_an_undo_gives_it_back(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let shop = Shop::open(backend).await;
    let red = shop.thread("Red", "#ED171F", 2.0).await;
    let white = shop.thread("White", "#F0F0F0", 1.0).await;
    let job = shop.job(10, json!({})).await;
    let pieces = format!("/teams/{}/jobs/{}/pieces", shop.team, job["id"].as_str().unwrap());
    // A draft is not on the machine.
    shop.app
        .api_post(&shop.owner, &pieces, json!({ "pieces": 1 }))
        .await
        .assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "bad_status");
    shop.patch(&job, json!({ "status": "ready" })).await.assert_status(StatusCode::OK);

    // 4 stars: 8.17 x 4 + 10% = 35.9 m of red, 0.04 of a 1,000 m spool; 21.2 m of white, 0.02.
    let four = shop.app.api_post(&shop.owner, &pieces, json!({ "pieces": 4 })).await;
    let four = four.assert_status(StatusCode::OK)["job"].clone();
    assert_eq!((four["status"].as_str(), four["pieces_done"].as_i64()), (Some("running"), Some(4)));
    assert!((shop.spools(&red).await - 1.96).abs() < 1e-9);
    assert!((shop.spools(&white).await - 0.98).abs() < 1e-9);
    shop.app
        .api_post(&shop.owner, &pieces, json!({ "pieces": 7 }))
        .await
        .assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "too_many_pieces");
    // The rest: done.
    let rest = shop.app.api_post(&shop.owner, &pieces, json!({ "pieces": 6 })).await;
    assert_eq!(rest.assert_status(StatusCode::OK)["job"]["status"], "done");
    assert!((shop.spools(&red).await - 1.91).abs() < 1e-9);

    // The history shows both changes, newest first, each with its lines.
    let history = shop.app.api_get(&shop.owner, &format!("/teams/{}/stock-changes", shop.team)).await;
    let history = history.assert_status(StatusCode::OK).clone();
    assert_eq!(history["total"], 2);
    let last = &history["changes"][0];
    assert_eq!(last["summary"], "Café Rosa polos: 6 pieces done");
    assert_eq!(last["job_id"], job["id"]);
    let red_line =
        last["lines"].as_array().unwrap().iter().find(|line| line["thread_id"] == red.as_str()).unwrap();
    assert!((red_line["spools"].as_f64().unwrap() + 0.05).abs() < 1e-9, "{red_line}");
    assert!(near(&red_line["metres"], -RED_M * 6.0 * 1.1), "{red_line}");

    // Undoing the last change gives the thread back and the job runs again with 4 done.
    let undo = format!("/teams/{}/stock-changes/{}/undo", shop.team, last["id"].as_str().unwrap());
    let undone = shop.app.api_post(&shop.owner, &undo, json!({})).await;
    assert!(undone.assert_status(StatusCode::OK)["change"]["undone_at"].is_string());
    assert!((shop.spools(&red).await - 1.96).abs() < 1e-9);
    let back = shop.get(&job).await;
    assert_eq!((back["status"].as_str(), back["pieces_done"].as_i64()), (Some("running"), Some(4)));
    shop.app
        .api_post(&shop.owner, &undo, json!({}))
        .await
        .assert_api_error(StatusCode::CONFLICT, "already_undone");
    assert!((shop.spools(&red).await - 1.96).abs() < 1e-9, "an undo gives back once");
}

#[rstest]
#[tokio::test]
async fn a_viewer_reads_and_cannot_change_another_teams_job_is_not_found(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let shop = Shop::open(backend).await;
    let viewer = shop.app.person("viewer").await;
    let stranger = shop.app.person("stranger").await;
    shop.app.join(&shop.owner, &shop.team, &viewer, "viewer").await;
    let job = shop.job(3, json!({})).await;
    let path = format!("/teams/{}/jobs/{}", shop.team, job["id"].as_str().unwrap());
    shop.app.api_get(&viewer, &path).await.assert_status(StatusCode::OK);
    let body = json!({ "version": job["version"], "status": "ready" });
    shop.app
        .api_patch(&viewer, &path, body.clone())
        .await
        .assert_api_error(StatusCode::FORBIDDEN, "forbidden");
    shop.app
        .api_post(&viewer, &format!("{path}/pieces"), json!({ "pieces": 1 }))
        .await
        .assert_api_error(StatusCode::FORBIDDEN, "forbidden");
    shop.app
        .api_post(
            &viewer,
            &format!("/teams/{}/jobs", shop.team),
            json!({ "name": "Mine", "design_id": shop.star, "quantity": 1 }),
        )
        .await
        .assert_api_error(StatusCode::FORBIDDEN, "forbidden");

    // A stranger's own team does not have the job; nor a design of another team's library.
    let theirs = shop.app.team(&stranger, "Theirs").await;
    shop.app
        .api_get(&stranger, &format!("/teams/{theirs}/jobs/{}", job["id"].as_str().unwrap()))
        .await
        .assert_api_error(StatusCode::NOT_FOUND, "not_found");
    shop.app.api_get(&stranger, &path).await.assert_api_error(StatusCode::NOT_FOUND, "not_found");
    shop.app
        .api_post(
            &stranger,
            &format!("/teams/{theirs}/jobs"),
            json!({ "name": "Copy", "design_id": shop.star, "quantity": 1 }),
        )
        .await
        .assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "no_such_design");
    // Bad input is named.
    let bad = shop
        .app
        .api_post(
            &shop.owner,
            &format!("/teams/{}/jobs", shop.team),
            json!({ "name": " ", "design_id": shop.star, "quantity": 0, "due_date": "20/12/2026" }),
        )
        .await;
    bad.assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
    let fields: Vec<&str> =
        bad.body["fields"].as_array().unwrap().iter().map(|f| f["field"].as_str().unwrap()).collect();
    assert_eq!(fields, ["name", "quantity", "due_date"]);
}

#[rstest]
#[tokio::test]
async fn what_jobs_are_short_of_is_on_the_shopping_list_until_received(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let shop = Shop::open(backend).await;
    let team = shop.team.clone();
    let made = shop
        .app
        .api_post(
            &shop.owner,
            &format!("/teams/{team}/threads"),
            json!({ "name": "Red", "colour": "#ED171F", "quantity": 0.05, "spool_length_m": 1000, "cost_per_spool": 4.5 }),
        )
        .await;
    let red = made.assert_status(StatusCode::CREATED)["thread"]["id"].as_str().unwrap().to_owned();
    shop.thread("White", "#F0F0F0", 10.0).await;
    let job = shop.job(10, json!({})).await;
    shop.patch(&job, json!({ "status": "ready" })).await.assert_status(StatusCode::OK);

    // The thread's page shows the job holding 89.9 m of it.
    let held = shop.app.api_get(&shop.owner, &format!("/teams/{team}/threads/{red}/reservations")).await;
    let held = held.assert_status(StatusCode::OK).clone();
    assert_eq!(held["reservations"][0]["job_id"], job["id"]);
    assert!(near(&held["metres"], RED_M * 11.0), "{held}");

    // 89.9 m needed, 50 m held: one spool to buy, at 4.50.
    let list = async |shop: &Shop| {
        let path = format!("/teams/{}/shopping-list", shop.team);
        shop.app.api_get(&shop.owner, &path).await.assert_status(StatusCode::OK).clone()
    };
    let before = list(&shop).await;
    assert_eq!(before["lines"].as_array().unwrap().len(), 1, "{before}");
    let line = &before["lines"][0];
    assert_eq!(
        (line["name"].as_str(), line["to_order"].as_u64(), line["cost"].as_f64()),
        (Some("Custom threads"), Some(1), Some(4.5))
    );
    let item = &line["items"][0];
    assert_eq!((item["thread"]["id"].as_str(), item["spools"].as_u64()), (Some(red.as_str()), Some(1)));
    assert!(near(&item["short_m"], RED_M * 11.0 - 50.0), "{item}");
    assert_eq!(item["jobs"], json!(["Café Rosa polos"]));

    // Ordered: nothing more to order; a viewer cannot order.
    let viewer = shop.app.person("viewer").await;
    shop.app.join(&shop.owner, &team, &viewer, "viewer").await;
    let order = json!({ "thread_id": red, "spools": 1 });
    shop.app
        .api_post(&viewer, &format!("/teams/{team}/orders"), order.clone())
        .await
        .assert_api_error(StatusCode::FORBIDDEN, "forbidden");
    let ordered = shop.app.api_post(&shop.owner, &format!("/teams/{team}/orders"), order).await;
    let ordered = ordered.assert_status(StatusCode::CREATED)["order"]["id"].as_str().unwrap().to_owned();
    let after = list(&shop).await;
    assert_eq!(
        (after["lines"][0]["items"][0]["ordered"].as_u64(), after["lines"][0]["to_order"].as_u64()),
        (Some(1), Some(0))
    );
    assert_eq!(after["orders"][0]["id"], ordered.as_str());

    // Received: the spool joins the stock in a change of the history, and the job is no longer short.
    let receive = format!("/teams/{team}/orders/{ordered}/receive");
    let received = shop.app.api_post(&shop.owner, &receive, json!({})).await;
    let change = received.assert_status(StatusCode::OK)["change"].clone();
    assert_eq!(
        (change["kind"].as_str(), change["summary"].as_str()),
        (Some("received"), Some("Received 1 spool of Red"))
    );
    assert!((shop.spools(&red).await - 1.05).abs() < 1e-9);
    assert_eq!(list(&shop).await["lines"], json!([]));
    assert_eq!(shop.get(&job).await["verdict"], "enough");
    shop.app
        .api_post(&shop.owner, &receive, json!({}))
        .await
        .assert_api_error(StatusCode::CONFLICT, "already_received");

    // Undone: the spool goes back and the order is open again.
    let undo = format!("/teams/{team}/stock-changes/{}/undo", change["id"].as_str().unwrap());
    shop.app.api_post(&shop.owner, &undo, json!({})).await.assert_status(StatusCode::OK);
    assert!((shop.spools(&red).await - 0.05).abs() < 1e-9);
    assert_eq!(list(&shop).await["orders"][0]["id"], ordered.as_str());
}
