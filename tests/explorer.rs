//! `fairy-egt explore`: the server started as a user starts it answers over HTTP on
//! loopback; its JSON (shaped like the Lichess tablebase API's) gives every position and
//! every move the values the tables give when probed in this process; bad requests get a
//! JSON error with HTTP 400; material not built yet is built on demand; many clients at once
//! all get their answers.

#[allow(dead_code)] // placements_from is for the tests that walk whole tables
#[path = "support/placements.rs"]
mod placements;
mod support;

use fairy_egt::board::{Color, Position, Setup};
use fairy_egt::egt::dtz::Rule;
use fairy_egt::egt::material::Material;
use fairy_egt::egt::progress::Silent;
use fairy_egt::egt::table::Metric;
use fairy_egt::egt::tables::TableSet;
use fairy_egt::egt::value::Value;
use fairy_egt::piece::PieceSet;
use placements::setup_of;
use serde_json::Value as Json;
use std::io::{Read, Write};
use std::net::TcpStream;
use support::{Engine, PATIENCE};

/// The explorer of `endgame`, started on a free port; and its address, `127.0.0.1:PORT`.
fn start(endgame: &str) -> (Engine, String) {
    let mut server = Engine::start(&["explore", endgame, "--port", "0", "--tables", "-"]);
    let url = server
        .next_line(PATIENCE)
        .expect("the server prints its address");
    let address = (url
        .strip_prefix("http://")
        .and_then(|a| a.strip_suffix('/')))
    .unwrap_or_else(|| panic!("an address http://HOST:PORT/, not {url}"))
    .to_string();
    assert!(
        address.starts_with("127.0.0.1:"),
        "loopback only: {address}"
    );
    (server, address)
}

/// GET `path`: the status code and the body.
fn get(address: &str, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(address).expect("connect to the explorer");
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut reply = String::new();
    stream.read_to_string(&mut reply).expect("read the reply");
    let (head, body) = reply.split_once("\r\n\r\n").expect("a head and a body");
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok());
    (status.expect("a status code"), body.to_string())
}

/// The JSON answer for `fen`, which must be 200.
fn lookup(address: &str, fen: &str) -> Json {
    let (status, body) = get(address, &format!("/api?fen={}", fen.replace(' ', "_")));
    assert_eq!(status, 200, "{fen}: {body}");
    serde_json::from_str(&body).expect("JSON")
}

/// Lichess's category and signed plies of a DTM value, a DTZ value beside it.
fn expected(dtm: Value, dtz: Value) -> (&'static str, Json, Json) {
    let plies = match dtm {
        Value::Win(n) => Json::from(2 * i64::from(n) - 1),
        Value::Loss(n) => Json::from(-2 * i64::from(n)),
        Value::Draw => Json::Null,
    };
    let z = match dtz {
        Value::Win(p) => i64::from(p),
        Value::Loss(p) => -i64::from(p),
        Value::Draw => 0,
    };
    let category = match Rule::FIFTY_MOVES.class(dtz) {
        fairy_egt::egt::dtz::Class::Win => "win",
        fairy_egt::egt::dtz::Class::CursedWin => "cursed-win",
        fairy_egt::egt::dtz::Class::Draw => "draw",
        fairy_egt::egt::dtz::Class::BlessedLoss => "blessed-loss",
        fairy_egt::egt::dtz::Class::Loss => "loss",
    };
    (category, plies, Json::from(z))
}

/// Asserts that `answer` (the whole answer, or one move's) values `pos` as the tables do.
fn agrees(tables: &TableSet, pos: &Position, answer: &Json) {
    let dtz = tables.rule_tables().expect("the rule's tables");
    let (category, dtm, z) = expected(tables.probe(pos).unwrap(), dtz.probe(pos).unwrap());
    let fen = pos.to_setup().to_fen();
    assert_eq!(answer["category"], category, "{fen}");
    assert_eq!(answer["dtm"], dtm, "{fen}");
    assert_eq!(answer["dtz"], z, "{fen}");
    assert_eq!(answer["fen"], fen.as_str());
}

/// Checks `count` random legal positions of `endgame` (its men `men`) against the tables:
/// the answer and every move's.
fn check_random_positions(endgame: &str, men: &[(Color, char)], count: usize) {
    let (_server, address) = start(endgame);
    let mut tables =
        TableSet::new(PieceSet::standard(), Metric::Dtm).with_rule_play(Rule::FIFTY_MOVES);
    let material = Material::parse(endgame, tables.pieces()).unwrap();
    tables.build(&material, &Silent).unwrap();
    let geometry = tables.geometry().clone();
    // Random placements (a fixed sequence), both sides to move, the legal ones.
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut checked = 0;
    while checked < count {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let squares: Vec<u8> = (0..men.len())
            .map(|k| (seed >> (8 + 6 * k) & 63) as u8)
            .collect();
        if (1..men.len()).any(|i| squares[..i].contains(&squares[i])) {
            continue;
        }
        let stm = if seed >> 60 & 1 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let setup: Setup = setup_of(geometry.board(), stm, men, &squares);
        let Ok(pos) = Position::new(&setup, &geometry, material.royals()) else {
            continue;
        };
        let answer = lookup(&address, &pos.to_setup().to_fen());
        agrees(&tables, &pos, &answer);
        assert_eq!(answer["endgame"], endgame);
        // Every legal move, each valued as the position it leaves, the best first.
        let moves = answer["moves"].as_array().expect("moves");
        let legal = pos.legal_moves(&geometry);
        assert_eq!(moves.len(), legal.len(), "{}", answer["fen"]);
        for m in moves {
            let mv = pos
                .parse_move(m["uci"].as_str().unwrap(), &geometry)
                .unwrap();
            agrees(&tables, &pos.play(mv), m);
            assert_eq!(m["zeroing"], pos.zeroes(mv));
        }
        if let Some(first) = moves.first() {
            let best = tables.scored_moves(&pos).unwrap();
            let top = best.iter().map(|s| s.value.rank()).max().unwrap();
            let mv = pos
                .parse_move(first["uci"].as_str().unwrap(), &geometry)
                .unwrap();
            let first_value = best.iter().find(|s| s.mv == mv).unwrap().value;
            assert_eq!(
                first_value.rank(),
                top,
                "{}: the best move first",
                answer["fen"]
            );
        }
        checked += 1;
    }
}

#[test]
fn the_api_gives_the_tables_values_for_positions_and_moves() {
    use Color::{Black, White};
    check_random_positions(
        "KQ.KR",
        &[(White, 'K'), (Black, 'K'), (White, 'Q'), (Black, 'R')],
        60,
    );
    // Pawns, their promotions (e7e8q … e7e8n) and the cursed wins of the 50-move rule.
    check_random_positions(
        "KP.KR",
        &[(White, 'K'), (Black, 'K'), (Black, 'R'), (White, 'P')],
        60,
    );
    // A fairy piece: the Archbishop.
    check_random_positions(
        "KA.KN",
        &[(White, 'K'), (Black, 'K'), (White, 'A'), (Black, 'N')],
        40,
    );
}

#[test]
fn the_longest_kqkr_win_reads_69_plies_and_its_line_mates() {
    let (_server, address) = start("KQ.KR");
    let tables = TableSet::new(PieceSet::standard(), Metric::Dtm);
    let geometry = tables.geometry();
    let kqkr = Material::parse("KQ.KR", tables.pieces()).unwrap();
    let answer = lookup(&address, support::KQKR);
    assert_eq!(answer["dtm"], 69);
    let setup = Setup::from_fen(support::KQKR, geometry.board()).unwrap();
    let mut pos = Position::new(&setup, geometry, kqkr.royals()).unwrap();
    let line = answer["line"].as_array().expect("a line");
    assert_eq!(line.len(), 69);
    for mv in line {
        pos = pos.play(pos.parse_move(mv.as_str().unwrap(), geometry).unwrap());
    }
    assert!(pos.legal_moves(geometry).is_empty() && pos.in_check(geometry));
}

#[test]
fn bad_requests_get_a_json_error_and_the_server_goes_on() {
    let (_server, address) = start("KQ.KR");
    for (path, says) in [
        ("/api", "fen"),
        ("/api?fen=8/8/8/bad_w_-_-_0_1", "rank"),
        ("/api?fen=8/8/8/8/2r5/8/2k5/K6L_w_-_-_0_1", "L"),
        ("/api?fen=8/8/8/8/2r5/8/1k6/K6Q_b_-_-_0_1", "capture"),
        ("/standard?fen=8/8/8/8/8/8/8/8_w_-_-_0_1", "empty"),
    ] {
        let (status, body) = get(&address, path);
        assert_eq!(status, 400, "{path}: {body}");
        let error: Json = serde_json::from_str(&body).expect("a JSON error");
        let message = error["error"].as_str().expect("an error message");
        assert!(message.contains(says), "{path}: {message}");
    }
    // Still serving.
    assert_eq!(lookup(&address, support::KQKR)["category"], "win");
}

#[test]
fn other_material_is_built_on_demand_and_many_clients_are_served() {
    let (_server, address) = start("KQ.KR");
    // KR.K is no sub-endgame of KQ.KR: built when asked for.
    let kr = lookup(&address, "8/8/8/4k3/8/8/8/R3K3 w - - 0 1");
    assert_eq!(kr["endgame"], "KR.K");
    assert_eq!(kr["category"], "win");
    // The page.
    let (status, page) = get(&address, "/");
    assert_eq!(status, 200);
    assert!(page.contains("<title>fairy-egt explorer</title>"));
    // The load of the issue: 10,000 requests from 50 clients at once, every answer the
    // same; the latencies printed (a figure for README, not a test: the machine is shared).
    let want = lookup(&address, support::KQKR);
    let mut latencies: Vec<std::time::Duration> = std::thread::scope(|s| {
        let clients: Vec<_> = (0..50)
            .map(|_| {
                s.spawn(|| {
                    (0..200)
                        .map(|_| {
                            let start = std::time::Instant::now();
                            assert_eq!(lookup(&address, support::KQKR), want);
                            start.elapsed()
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        clients
            .into_iter()
            .flat_map(|c| c.join().unwrap())
            .collect()
    });
    latencies.sort();
    let at = |q: f64| latencies[((latencies.len() - 1) as f64 * q) as usize];
    assert_eq!(latencies.len(), 10_000);
    eprintln!(
        "explorer: 10,000 requests from 50 clients: median {:?}, p99 {:?}, slowest {:?}",
        at(0.5),
        at(0.99),
        at(1.0)
    );
}

#[test]
fn an_on_demand_build_shows_its_progress() {
    let (_server, address) = start("KQ.KR");
    let idle: Json = serde_json::from_str(&get(&address, "/progress").1).unwrap();
    assert_eq!(idle["building"], false);
    // KBN.K is built when asked for; meanwhile /progress reports it, as XBoard shows builds.
    let seen = std::thread::scope(|s| {
        let asked = s.spawn(|| lookup(&address, "8/8/8/3k4/8/8/8/BN2K3 w - - 0 1"));
        let mut seen = Vec::new();
        while !asked.is_finished() {
            let p: Json = serde_json::from_str(&get(&address, "/progress").1).unwrap();
            if p["building"] == true {
                seen.push(p["text"].as_str().unwrap().to_string());
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert_eq!(asked.join().unwrap()["category"], "win");
        seen
    });
    assert!(seen.iter().any(|t| t.contains("KBN.K")), "{seen:?}");
    let done: Json = serde_json::from_str(&get(&address, "/progress").1).unwrap();
    assert_eq!(done["building"], false);
}
