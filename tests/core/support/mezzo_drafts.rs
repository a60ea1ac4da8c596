//! Mezzo drafts the plot game's table opens for votes, shared by the core tests and the
//! window tests (`#[path]`-included there).

use sheetkeeper::rules::mezzo::action_check::{BaseChance, SideKind, SideSetup};
use sheetkeeper::services::CheckDraft;
use uuid::Uuid;

/// Tomas (common) climbs the lighthouse, or falls (occasional); `involved`, the elements
/// the check names besides.
pub fn climb(tomas: Uuid, involved: Vec<Uuid>) -> CheckDraft {
    CheckDraft {
        description: "Tomas climbs the lighthouse".into(),
        sides: vec![
            SideSetup {
                kind: SideKind::Action { element: tomas },
                description: String::new(),
                chance: BaseChance::Common,
                aptitude: 0,
            },
            SideSetup {
                kind: SideKind::Failure,
                description: "He falls".into(),
                chance: BaseChance::Occasional,
                aptitude: 0,
            },
        ],
        involved,
    }
}
