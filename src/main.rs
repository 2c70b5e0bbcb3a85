//! fairy-egt: command line → settings → a command (engine mode without one); errors → exit
//! codes (2: bad input).

mod cli;
mod commands;
mod session;

use cli::{parse_args, Command, USAGE};
use commands::{build, explore, moves, play, probe, UserError};

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let result = match parse_args(std::env::args_os().skip(1)) {
        Err(e) => Err(UserError(format!("{e}\n{USAGE}"))),
        Ok(Command::Help) => {
            print!("{USAGE}");
            Ok(())
        }
        Ok(Command::Version) => {
            println!("fairy-egt {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
        Ok(Command::Build { common, json }) => build::run(&common, json),
        Ok(Command::Probe { common, fen }) => probe::run(&common, &fen),
        Ok(Command::ProbeMany { common, fens }) => probe::run_many(&common, &fens),
        Ok(Command::Moves { common, fens }) => moves::run(&common, &fens),
        Ok(Command::Play { common, fen }) => play::run(&common, fen.as_deref()),
        Ok(Command::Explore { common, bind, port }) => explore::run(&common, bind, port),
        Ok(Command::Engine { common }) => session::run(&common),
    };
    if let Err(e) = result {
        eprintln!("fairy-egt: {e}");
        std::process::exit(2);
    }
}
