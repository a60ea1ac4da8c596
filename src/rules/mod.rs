//! The games' rules: pure functions with no SQL, files, clock or global RNG.

pub mod dice;
pub mod dice_tray;
pub mod journal;
pub mod mezzo;
pub mod nsu;
pub mod odds;
pub mod penny_ante;
pub mod record;
pub mod scattershot;
pub mod table_settings;
#[cfg(test)]
pub(crate) mod test_support;

/// Whether `value` is its type's default: what a record leaves out when it is written
/// (`skip_serializing_if`), as reading it back fills the default in.
pub(crate) fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}
