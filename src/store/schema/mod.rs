//! The schema, as migrations that only grow. `user_version` counts the ones applied.
//! Each migration is a file of its own (`vNN.sql`, what it adds said at its top).

use rusqlite_migration::{Migrations, M};

const V1: &str = include_str!("v01.sql");
const V2: &str = include_str!("v02.sql");
const V3: &str = include_str!("v03.sql");
const V4: &str = include_str!("v04.sql");
const V5: &str = include_str!("v05.sql");
const V6: &str = include_str!("v06.sql");
const V7: &str = include_str!("v07.sql");
const V8: &str = include_str!("v08.sql");
const V9: &str = include_str!("v09.sql");
const V10: &str = include_str!("v10.sql");
const V11: &str = include_str!("v11.sql");
const V12: &str = include_str!("v12.sql");
const V13: &str = include_str!("v13.sql");
const V14: &str = include_str!("v14.sql");
const V15: &str = include_str!("v15.sql");
const V16: &str = include_str!("v16.sql");
const V17: &str = include_str!("v17.sql");
const V18: &str = include_str!("v18.sql");
const V19: &str = include_str!("v19.sql");
const V20: &str = include_str!("v20.sql");
const V21: &str = include_str!("v21.sql");
const V22: &str = include_str!("v22.sql");
const V23: &str = include_str!("v23.sql");
const V24: &str = include_str!("v24.sql");
const V25: &str = include_str!("v25.sql");
const V26: &str = include_str!("v26.sql");
const V27: &str = include_str!("v27.sql");
const V28: &str = include_str!("v28.sql");
const V29: &str = include_str!("v29.sql");
const V30: &str = include_str!("v30.sql");
const V31: &str = include_str!("v31.sql");
const V32: &str = include_str!("v32.sql");

/// Every migration, oldest first. Append only: never edit one that has shipped.
/// `Store::open` applies [`UP`]; tests use `MIGRATIONS` to build databases of an older
/// version (`to_version`) and to check that both lists agree.
#[cfg_attr(not(test), allow(dead_code))]
const STEPS: &[M<'static>] = &[
    M::up(V1),
    M::up(V2),
    M::up(V3),
    M::up(V4),
    M::up(V5),
    M::up(V6),
    M::up(V7),
    M::up(V8),
    M::up(V9),
    M::up(V10),
    M::up(V11),
    M::up(V12),
    M::up(V13),
    M::up(V14),
    M::up(V15),
    M::up(V16),
    M::up(V17),
    M::up(V18),
    M::up(V19),
    M::up(V20),
    M::up(V21),
    M::up(V22),
    M::up(V23),
    M::up(V24),
    M::up(V25),
    M::up(V26),
    M::up(V27),
    M::up(V28),
    M::up(V29),
    M::up(V30),
    M::up(V31),
    M::up(V32),
];
#[cfg_attr(not(test), allow(dead_code))]
pub const MIGRATIONS: Migrations<'static> = Migrations::from_slice(STEPS);

/// The same migrations' SQL, for `Store::open`, which applies them itself inside the write
/// transaction that read `user_version` (`MIGRATIONS.to_latest` reads the version before
/// its own transaction, so two processes could both apply step 1). A test checks that both
/// lists build the same schema.
pub(super) const UP: [&str; LATEST as usize] = [
    V1, V2, V3, V4, V5, V6, V7, V8, V9, V10, V11, V12, V13, V14, V15, V16, V17, V18, V19, V20, V21, V22, V23, V24, V25,
    V26, V27, V28, V29, V30, V31, V32,
];

/// The schema version this build writes.
pub const LATEST: i64 = 32;

#[cfg(test)]
mod tests {
    #[test]
    fn migrations_are_valid() {
        assert!(super::MIGRATIONS.validate().is_ok());
    }

    /// `UP` (what `Store::open` applies) and `MIGRATIONS` build the same schema, step by step.
    #[test]
    fn up_and_migrations_build_the_same_schema() {
        fn schema(conn: &rusqlite::Connection) -> Vec<(String, String, Option<String>)> {
            conn.prepare("SELECT type, name, sql FROM sqlite_schema ORDER BY type, name")
                .unwrap()
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                .unwrap()
                .collect::<rusqlite::Result<_>>()
                .unwrap()
        }
        let mut by_library = rusqlite::Connection::open_in_memory().unwrap();
        let by_hand = rusqlite::Connection::open_in_memory().unwrap();
        for (i, up) in super::UP.iter().enumerate() {
            super::MIGRATIONS.to_version(&mut by_library, i + 1).unwrap();
            by_hand.execute_batch(up).unwrap();
            assert_eq!(schema(&by_library), schema(&by_hand), "after step {}", i + 1);
        }
        assert_eq!(super::UP.len() as i64, super::LATEST);
    }
}
