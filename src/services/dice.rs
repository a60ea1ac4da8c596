//! Where a service's dice come from: rolled by the app with the RNG passed in from the edge,
//! or rolled by hand at the table and typed in.

use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::rules::dice::{DiceSource, Entered, Rolled};

/// Where the dice come from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DiceInput {
    /// The app rolls them.
    Rolled,
    /// Rolled by hand at the table and typed in, in the order the app asks for them.
    Entered { values: Vec<u8> },
}

/// Runs `play` with the dice `input` names. Typed-in values must all be used: a value left
/// over means the table rolled more dice than the move asks for, and is refused.
pub(super) fn with_dice<R: Rng, T>(
    input: &DiceInput,
    rng: &mut R,
    play: impl FnOnce(&mut dyn DiceSource) -> Result<T>,
) -> Result<T> {
    match input {
        DiceInput::Rolled => play(&mut Rolled(rng)),
        DiceInput::Entered { values } => {
            let mut dice = Entered::new(values.iter().copied());
            let out = play(&mut dice)?;
            if dice.remaining() > 0 {
                let used = values.len() - dice.remaining();
                return Err(Error::invalid(
                    "dice",
                    format!("{} values were entered but this roll uses {used} dice", values.len()),
                ));
            }
            Ok(out)
        }
    }
}
