//! The explorer's web server: the page at `/`, the answers of `answer.rs` at `/api` and
//! `/standard` (Lichess's path), `?fen=` (underscores for spaces, as Lichess allows), and a
//! table's pictures (`pictures.rs`) at `/pictures?endgame=`, drawn once per endgame; while a
//! table is built on demand, its progress at `/progress`.
//! Positions of material not built yet are built on demand, one build at a time; a bad FEN
//! or a position the tables cannot answer is an HTTP 400 with `{"error": "..."}`.

use super::answer::{answer, Answer};
use super::pictures::{pictures, Pictures};
use crate::board::{Position, Setup};
use crate::egt::material::{material_of, Material};
use crate::egt::progress::BuildEvent;
use crate::egt::tables::TableSet;
use crate::engine::game::check;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};

/// The page: board, moves and values, drawn by its script from `/api`.
const PAGE: &str = include_str!("page.html");

/// What the server answers from: the tables, and the endgame whose royals read FENs.
pub struct Explorer {
    tables: RwLock<TableSet>,
    spec: Material,
    /// Held while a table is built: one build at a time.
    building: Mutex<()>,
    /// The pictures drawn so far, by endgame (a pass over the whole table each).
    pictures: Mutex<HashMap<Material, Arc<Pictures>>>,
    /// The last progress report of the build under way, if one is.
    progress: Mutex<Option<Progress>>,
}

/// How far the build under way is, as `/progress` gives it.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Progress {
    /// Whether a build is under way.
    pub building: bool,
    /// The report, as the engine shows it in XBoard (`42% KBN.KN, ~3 s left: building
    /// KBN.KN, distance 14, 1.2 s`).
    pub text: String,
    /// The share of the build done, 0 to 1.
    pub fraction: f64,
}

/// Why a request gets no answer.
#[derive(Debug)]
pub struct Refusal {
    status: StatusCode,
    message: String,
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message });
        (self.status, Json(body)).into_response()
    }
}

fn bad_request(message: impl std::fmt::Display) -> Refusal {
    Refusal {
        status: StatusCode::BAD_REQUEST,
        message: message.to_string(),
    }
}

impl Explorer {
    /// An explorer of `tables` (the endgame `spec` built, or to be built on demand), whose
    /// FENs name their royals as `spec` does.
    pub fn new(tables: TableSet, spec: Material) -> Explorer {
        Explorer {
            tables: RwLock::new(tables),
            spec,
            building: Mutex::new(()),
            pictures: Mutex::new(HashMap::new()),
            progress: Mutex::new(None),
        }
    }

    /// The answer for a FEN (underscores read as spaces), building its tables if needed.
    pub fn answer_fen(&self, fen: &str) -> Result<Answer, Refusal> {
        let fen = fen.replace('_', " ");
        let pos = self.position(&fen)?;
        let material = material_of(&pos).0;
        self.build(&material)?;
        answer(&self.read(), &pos).map_err(bad_request)
    }

    /// The pictures of an endgame (`KQ.KR`), building its tables if needed.
    pub fn pictures_of(&self, endgame: &str) -> Result<Arc<Pictures>, Refusal> {
        let material = Material::parse(endgame, self.read().pieces()).map_err(bad_request)?;
        if let Some(p) = self
            .pictures
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&material)
        {
            return Ok(p.clone());
        }
        self.build(&material)?;
        let tables = self.read();
        let table = tables
            .get(&material)
            .ok_or_else(|| bad_request("no such table"))?;
        let drawn = Arc::new(pictures(table, tables.geometry()));
        let mut cache = self.pictures.lock().unwrap_or_else(|e| e.into_inner());
        cache.insert(material, drawn.clone());
        Ok(drawn)
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, TableSet> {
        // A panic in a probe cannot leave the tables half written: only builds write.
        self.tables.read().unwrap_or_else(|e| e.into_inner())
    }

    /// The checked position of a FEN on the tables' board.
    fn position(&self, fen: &str) -> Result<Position, Refusal> {
        let tables = self.read();
        let geometry = tables.geometry();
        let setup = Setup::from_fen(fen, geometry.board()).map_err(bad_request)?;
        check(&setup, geometry, self.spec.royals()).map_err(bad_request)
    }

    /// Builds `material`'s tables unless they are built (by an earlier request, or by a
    /// build that held the lock before this one).
    fn build(&self, material: &Material) -> Result<(), Refusal> {
        if self.read().playable(material) {
            return Ok(());
        }
        let _one = self.building.lock().unwrap_or_else(|e| e.into_inner());
        if self.read().playable(material) {
            return Ok(());
        }
        log::info!("building {material} for the explorer");
        let report = |event: &BuildEvent| {
            *self.progress.lock().unwrap_or_else(|e| e.into_inner()) = Some(Progress {
                building: true,
                text: event.to_string(),
                fraction: event.fraction,
            });
        };
        let built = {
            let mut tables = self.tables.write().unwrap_or_else(|e| e.into_inner());
            tables.build(material, &report)
        };
        *self.progress.lock().unwrap_or_else(|e| e.into_inner()) = None;
        built.map_err(|e| Refusal {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: format!("cannot build {material}: {e}"),
        })
    }

    /// How far the build under way is (`building` false when none is).
    pub fn progress(&self) -> Progress {
        let progress = self.progress.lock().unwrap_or_else(|e| e.into_inner());
        progress.clone().unwrap_or_default()
    }
}

#[derive(Deserialize)]
struct Lookup {
    fen: Option<String>,
}

async fn lookup(
    State(explorer): State<Arc<Explorer>>,
    Query(query): Query<Lookup>,
) -> Result<Json<Answer>, Refusal> {
    let fen = query.fen.ok_or_else(|| bad_request("expected ?fen=FEN"))?;
    off_thread(move || explorer.answer_fen(&fen))
        .await
        .map(Json)
}

/// Runs `work` off the server's threads: probing, drawing and building take the processor.
async fn off_thread<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, Refusal> + Send + 'static,
) -> Result<T, Refusal> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| Refusal {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: format!("the request failed: {e}"),
        })?
}

#[derive(Deserialize)]
struct Endgame {
    endgame: Option<String>,
}

async fn drawn(
    State(explorer): State<Arc<Explorer>>,
    Query(query): Query<Endgame>,
) -> Result<Json<Pictures>, Refusal> {
    let endgame = query
        .endgame
        .ok_or_else(|| bad_request("expected ?endgame=ENDGAME, e.g. KQ.KR"))?;
    off_thread(move || explorer.pictures_of(&endgame))
        .await
        .map(|p| Json(Pictures::clone(&p)))
}

/// The routes: the page at `/`, the answers at `/api` and `/standard`, a table's pictures at
/// `/pictures?endgame=`, the progress of the build under way at `/progress`.
pub fn router(explorer: Arc<Explorer>) -> Router {
    Router::new()
        .route("/", get(|| async { Html(PAGE) }))
        .route("/api", get(lookup))
        .route("/standard", get(lookup))
        .route("/pictures", get(drawn))
        .route(
            "/progress",
            get(|State(explorer): State<Arc<Explorer>>| async move { Json(explorer.progress()) }),
        )
        .with_state(explorer)
}
