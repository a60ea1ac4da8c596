//! Integration tests of the core: the real SQLite file, real files on disk, the real CLI.

mod cli;
mod crash;
mod exchange;
mod mezzo_challenge;
mod mezzo_check;
mod mezzo_conflict;
mod mezzo_exchange;
mod mezzo_odds;
mod mezzo_plot;
mod mezzo_services;
mod mezzo_store;
mod nsu_odds;
mod nsu_roll;
mod nsu_sheet;
mod nsu_world;
mod penny_ante;
mod penny_exchange;
mod penny_services;
mod penny_store;
mod sample;
mod scattershot_exchange;
mod scattershot_odds;
mod scattershot_services;
mod services;
mod store;
mod support;
