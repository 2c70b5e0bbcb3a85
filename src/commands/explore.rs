//! `fairy-egt explore`: builds the endgame (with its 50-move-rule tables, as the engine
//! does), then serves the explorer until killed, its address on stdout.

use super::{settings, start_threads, StderrProgress, UserError};
use crate::cli::Common;
use fairy_egt::engine::engine_tables;
use fairy_egt::explorer::server::{router, Explorer};
use std::io::Write as _;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

/// Builds, binds `bind`:`port` (0: any free port), prints `http://ADDR:PORT/` and serves.
pub fn run(common: &Common, bind: IpAddr, port: u16) -> Result<(), UserError> {
    let s = settings(common)?;
    start_threads(s.options.threads);
    let mut tables = engine_tables(&s);
    let progress = StderrProgress::new();
    tables
        .build(&s.material, &progress)
        .map_err(UserError::from_display)?;
    progress.finish();
    let explorer = Arc::new(Explorer::new(tables, s.material.clone()));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_io()
        .build()
        .map_err(|e| UserError(format!("cannot start the server: {e}")))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(SocketAddr::new(bind, port))
            .await
            .map_err(|e| UserError(format!("--port {port}: cannot listen on {bind}: {e}")))?;
        let address = listener
            .local_addr()
            .map_err(|e| UserError(format!("the server's address: {e}")))?;
        println!("http://{address}/");
        let _ = std::io::stdout().flush();
        axum::serve(listener, router(explorer))
            .await
            .map_err(|e| UserError(format!("the server stopped: {e}")))
    })
}
