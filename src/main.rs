//! `sheetkeeper`: the command line over the same services as the window.
//!
//! Exit codes: 0 ok, 1 invalid input (or anything the command could not do), 2 usage.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{anyhow, Context};
use clap::{Args, Parser, Subcommand};
use serde::Serialize;
use sheetkeeper::model::parse_id;
use sheetkeeper::services::{self, ExportScope, ImportOptions};
use sheetkeeper::{paths, Store};

#[derive(Parser)]
#[command(
    name = "sheetkeeper",
    version,
    about = "Sheetkeeper's command line: list, check, back up, import and export."
)]
struct Cli {
    /// The database file [default: $SHEETKEEPER_DB, else the app's own database]
    #[arg(long, global = true, value_name = "PATH")]
    db: Option<PathBuf>,
    /// Print the result as JSON on stdout
    #[arg(long, global = true)]
    json: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List every game and its characters
    List,
    /// Check the database's integrity and foreign keys (exit 1 when a check fails)
    Check,
    /// Copy the whole database into a new SQLite file
    Backup { file: PathBuf },
    /// Import a *.sheetkeeper.json file (one transaction: all of it or nothing)
    Import {
        file: PathBuf,
        /// Validate and show what would change, without writing
        #[arg(long)]
        dry_run: bool,
        /// Give everything imported new ids, so it lands beside what is here
        #[arg(long)]
        as_copy: bool,
        /// Let the file win where it conflicts with changes made here
        #[arg(long)]
        replace: bool,
    },
    /// Export a character, a game, or everything to a *.sheetkeeper.json file
    Export {
        #[command(flatten)]
        what: ExportWhat,
        file: PathBuf,
    },
}

#[derive(Args)]
#[group(required = true, multiple = false)]
struct ExportWhat {
    /// The character's id
    #[arg(long, value_name = "ID")]
    character: Option<String>,
    /// The game's id (with all its characters)
    #[arg(long, value_name = "ID")]
    game: Option<String>,
    /// Every game and character
    #[arg(long)]
    all: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("sheetkeeper: {e:#}");
            ExitCode::from(1)
        }
    }
}

fn open(db: Option<&Path>) -> anyhow::Result<Store> {
    let path = db
        .map(Path::to_owned)
        .or_else(paths::default_db_path)
        .ok_or_else(|| anyhow!("--db: no database path given and no home folder to find the app's database in"))?;
    Store::open(&path).with_context(|| format!("opening the database {}", path.display()))
}

/// Prints `value` as JSON with --json, else the human line(s).
fn print<T: Serialize>(json: bool, value: &T, human: impl FnOnce(&T) -> String) {
    if json {
        println!("{}", serde_json::to_string_pretty(value).expect("views always serialize"));
    } else {
        println!("{}", human(value));
    }
}

fn run(cli: &Cli) -> anyhow::Result<ExitCode> {
    let db = cli.db.as_deref();
    match &cli.command {
        Command::List => {
            let store = open(db)?;
            let games = services::list(&store)?;
            #[derive(Serialize)]
            struct Listing<'a> {
                games: &'a [services::GameView],
            }
            print(cli.json, &Listing { games: &games }, |l| {
                let mut out = Vec::new();
                for g in l.games {
                    out.push(format!("{}  {} ({})", g.game.id, g.game.name, g.system_label));
                    out.extend(g.characters.iter().map(|c| format!("  {}  {}", c.id, c.name)));
                }
                if out.is_empty() {
                    "No games yet.".into()
                } else {
                    out.join("\n")
                }
            });
        }
        Command::Check => {
            let report = open(db)?.check()?;
            print(cli.json, &report, |r| {
                if r.ok {
                    format!("ok (schema {}, SQLite {})", r.schema_version, r.sqlite_version)
                } else {
                    format!("problems found:\n{}\n{}", r.integrity.join("\n"), r.foreign_key_violations.join("\n"))
                }
            });
            if !report.ok {
                return Ok(ExitCode::from(1));
            }
        }
        Command::Backup { file } => {
            open(db)?.backup_to(file)?;
            let done = services::Done { message: format!("Backed up the database to {}.", file.display()) };
            print(cli.json, &done, |d| d.message.clone());
        }
        Command::Import { file, dry_run, as_copy, replace } => {
            let mut store = open(db)?;
            if *dry_run {
                let preview = services::import_preview(&store, file, *as_copy)?;
                print(cli.json, &preview, |p| {
                    let c = p.counts;
                    let mut out = vec![format!(
                        "Would import: {} new, {} updated, {} conflicting, {} unchanged.",
                        c.new, c.update, c.conflict, c.unchanged
                    )];
                    for (what, item) in
                        p.games.iter().map(|i| ("game", i)).chain(p.characters.iter().map(|i| ("character", i)))
                    {
                        out.push(format!("  {what} {} “{}”: {:?}", item.id, item.name, item.status));
                    }
                    out.join("\n")
                });
            } else {
                let options = ImportOptions { as_copy: *as_copy, replace_conflicts: *replace };
                let report = services::import(&mut store, file, options)?;
                print(cli.json, &report, |r| r.message.clone());
            }
        }
        Command::Export { what, file } => {
            let scope = match (&what.character, &what.game) {
                (Some(id), _) => ExportScope::Character(parse_id("--character", id)?),
                (_, Some(id)) => ExportScope::Game(parse_id("--game", id)?),
                _ => ExportScope::All,
            };
            let done = services::export(&open(db)?, scope, file)?;
            print(cli.json, &done, |d| d.message.clone());
        }
    }
    Ok(ExitCode::SUCCESS)
}
